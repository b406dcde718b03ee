"""A Python program using the native provider `platform`, run under the real Pulumi CLI as an
Automation API inline program (no Python language host needed). Usage: inline_group.py REQUEST.json,
where the request names the operations to run in order; the answers go to the request's resultFile."""
import json
import sys

import pulumi
from pulumi import automation as auto


def main(request_file: str) -> None:
    with open(request_file, encoding="utf-8") as f:
        request = json.load(f)

    def program() -> None:
        config = pulumi.Config()
        api = pulumi.ProviderResource(
            "platform", "api", {"apiUrl": config.require("apiUrl"), "token": config.require_secret("token")}
        )
        team = pulumi.CustomResource(
            "platform:iam:Group",
            "team",
            {"parentUid": config.require("rootUid"), "name": request["groupName"], "description": "declared in Python"},
            opts=pulumi.ResourceOptions(provider=api),
        )
        pulumi.export("uid", team.id)

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
        stack.set_config(key, auto.ConfigValue(value=value["value"], secret=value["secret"]))

    answers = []
    for operation in request["operations"]:
        try:
            if operation == "up":
                result = stack.up(color="never")
            elif operation == "preview --refresh --expect-no-changes":
                result = stack.preview(color="never", refresh=True, expect_no_changes=True)
            elif operation == "destroy":
                result = stack.destroy(color="never")
            else:
                raise ValueError(f"unknown operation {operation}")
            answers.append({"operation": operation, "code": 0, "stdout": result.stdout, "stderr": result.stderr})
        except auto.CommandError as error:
            answers.append({"operation": operation, "code": 1, "stdout": "", "stderr": str(error)})
            break
        outputs = {key: {"value": value.value, "secret": value.secret} for key, value in stack.outputs().items()}
        answers[-1]["outputs"] = outputs
    with open(request["resultFile"], "w", encoding="utf-8") as f:
        json.dump(answers, f)


if __name__ == "__main__":
    main(sys.argv[1])
