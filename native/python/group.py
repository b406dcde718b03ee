"""A Python program using the native provider `platform` by type token, with an explicit
provider resource: one group under the configured root. Run by tools/pulumi-cli/inline_python.py
(Python's Automation API: no Python language host is built here)."""
import pulumi

config = pulumi.Config()
api = pulumi.ProviderResource(
    "platform", "api", {"apiUrl": config.require("apiUrl"), "token": config.require_secret("token")}
)
team = pulumi.CustomResource(
    "platform:iam:Group",
    "team",
    {"parentUid": config.require("rootUid"), "name": config.require("groupName"), "description": "declared in Python"},
    opts=pulumi.ResourceOptions(provider=api),
)
pulumi.export("uid", team.id)
