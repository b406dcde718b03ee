"""One operation of a Python Pulumi program under the real CLI, through Python's Automation API,
the Python twin of automation.ts: no Python language host is built (the Go module proxy does not
serve its module), so this process is the program's language runtime, and the program, a plain
__main__.py, runs as the inline program (runpy, as the language host would run it).

Usage: inline_python.py REQUEST.json. The request is automation.ts's RealCliRequest (operation,
refresh, expectNoChanges, diff, programDir, entry, project, stack, cliRoot, envVars, config,
resultFile); the answer, written to resultFile, has its RealCliResult's code, stdout, stderr and
outputs."""
import json
import re
import runpy
import sys

from pulumi import automation as auto

# What a CommandError says of the command (the error keeps no CommandResult of its own).
COMMAND_RESULT = re.compile(r"\n code: (-?\d+)\n stdout: (.*)\n stderr: (.*)\Z", re.S)


def main(request_file: str) -> None:
    with open(request_file, encoding="utf-8") as f:
        request = json.load(f)

    def program() -> None:
        runpy.run_path(request["entry"], run_name="__main__")

    stack = auto.create_or_select_stack(
        stack_name=request["stack"],
        project_name=request["project"],
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=request["programDir"],
            env_vars=request["envVars"],
            secrets_provider="passphrase",
            pulumi_command=auto.PulumiCommand(root=request["cliRoot"]),
        ),
    )
    for key, value in request["config"].items():
        stack.set_config(key, auto.ConfigValue(value=value["value"], secret=value["secret"]), path=False)

    operation = request["operation"]
    refresh = bool(request.get("refresh"))
    expect_no_changes = bool(request.get("expectNoChanges"))
    diff = bool(request.get("diff"))
    try:
        if operation == "preview":
            result = stack.preview(color="never", refresh=refresh, expect_no_changes=expect_no_changes, diff=diff)
        elif operation == "up":
            result = stack.up(color="never", refresh=refresh, diff=diff)
        elif operation == "refresh":
            result = stack.refresh(color="never", expect_no_changes=expect_no_changes)
        elif operation == "destroy":
            result = stack.destroy(color="never")
        else:
            raise ValueError(f"operation {operation!r}: expected preview, up, refresh or destroy")
        answer = {"code": 0, "stdout": result.stdout, "stderr": result.stderr}
    except auto.CommandError as error:
        said = COMMAND_RESULT.match(str(error))
        if not said:
            raise
        answer = {"code": int(said.group(1)), "stdout": said.group(2), "stderr": said.group(3)}
    answer["outputs"] = {key: {"value": out.value, "secret": out.secret} for key, out in stack.outputs().items()}
    with open(request["resultFile"], "w", encoding="utf-8") as f:
        json.dump(answer, f)


if __name__ == "__main__":
    main(sys.argv[1])
