"""Runs Pulumi Python programs under the Python SDK's mocks, each alone, every resource and invoke
answered locally: what a docs page's Python example calls (the SDK's classes, their keyword
arguments, Args classes, functions) must exist with those names for it to run.

Usage: python run_with_mocks.py PROGRAMS.json, a list of {"program": path, "config": {key: value}}.
Prints a JSON object of the programs that failed, each with its error.
"""
import asyncio
import json
import runpy
import sys
import traceback

import pulumi


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        return [f"{args.name}-id", {**args.inputs, "uid": f"{args.name}-id"}]

    def call(self, args):
        return {"uid": "found-id"}


def run(program, config):
    pulumi.runtime.set_mocks(Mocks(), project="example", stack="dev", preview=False)
    pulumi.runtime.set_all_config({f"example:{key}": value for key, value in config.items()})
    runpy.run_path(program, run_name="__main__")
    loop = asyncio.get_event_loop()
    # Every registration and invoke the program started finishes, its errors raised here.
    pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
    if pending:
        loop.run_until_complete(asyncio.gather(*pending))


failures = {}
with open(sys.argv[1]) as listing:
    for entry in json.load(listing):
        try:
            run(entry["program"], entry["config"])
        except Exception as error:
            failures[entry["program"]] = f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=3)}"
print(json.dumps(failures))
