"""The engineering department of examples/org-hierarchy (its index.ts tells the story) as a Python
program on the native provider `platform`, through its generated Python SDK (pulumi_platform:
`npm run sdks`, then `pip install sdk/python`): the same groups, CI identities, custom role,
role bindings, repo, event subscription and single sign-on.

Settings: pulumi config set platform:apiUrl <url>; pulumi config set --secret platform:token <token>
(or PLATFORM_API_URL and PLATFORM_TOKEN); pulumi config set rootUid <uid>; and optionally
departmentName, paymentsName, ledgerParent, githubRepository, gitlabProject, gitlabIssuer, ciRole,
eventsSink, ssoIssuer, ssoClientId and the secret ssoClientSecret. Unlike index.ts it leaves out
the images and advisories outputs.
"""
import pulumi
import pulumi_platform as platform

config = pulumi.Config()
root_uid = config.require("rootUid")
department_name = config.get("departmentName") or "engineering"
payments_name = config.get("paymentsName") or "payments"
ledger_parent = config.get("ledgerParent") or "payments"
github_repository = config.get("githubRepository") or "acme/app"
gitlab_project = config.get("gitlabProject") or "acme/payments"
gitlab_issuer = config.get("gitlabIssuer") or "https://gitlab.com"
ci_role = config.get("ciRole") or "viewer"
events_sink = config.get("eventsSink") or "https://hooks.example.com/engineering-events"
sso_issuer = config.get("ssoIssuer") or "https://login.example.com"
sso_client_id = config.get("ssoClientId") or "platform-engineering"
sso_client_secret = config.get_secret("ssoClientSecret")

team_specs = {
    "platform": ("platform", "Platform engineering: CI/CD and base images"),
    "payments": (payments_name, "Payments and billing"),
    "data": ("data", "Data engineering and analytics"),
}

department = platform.iam.Group(
    "engineering", parent_uid=root_uid, name=department_name, description="Engineering department"
)

teams = {
    key: platform.iam.Group(key, parent_uid=department.uid, name=name, description=description)
    for key, (name, description) in team_specs.items()
}
if ledger_parent not in teams:
    raise ValueError(f'config ledgerParent: "{ledger_parent}" is not a team (expected one of {", ".join(teams)})')

nested = {
    "oncall": platform.iam.Group(
        "oncall", parent_uid=teams["platform"].uid, name="oncall", description="Platform on-call rotation"
    ),
    "ledger": platform.iam.Group(
        "ledger", parent_uid=teams[ledger_parent].uid, name="ledger", description="Ledger service owners"
    ),
    "analytics": platform.iam.Group("analytics", parent_uid=teams["data"].uid, name="analytics"),
}

# CI identities: a pipeline proves who it is with its platform's OIDC token; no stored secret.
github_deploy = platform.iam.Identity(
    "github-deploy",
    parent_uid=teams["platform"].uid,
    name="github-deploy",
    description=f"GitHub Actions on {github_repository}, main branch",
    claim_match=platform.iam.IdentityClaimMatchArgs(
        issuer="https://token.actions.githubusercontent.com",
        subject=f"repo:{github_repository}:ref:refs/heads/main",
    ),
)
gitlab_ci = platform.iam.Identity(
    "gitlab-ci",
    parent_uid=teams["payments"].uid,
    name="gitlab-ci",
    description=f"GitLab CI on {gitlab_project}, main branch",
    claim_match=platform.iam.IdentityClaimMatchArgs(
        issuer=gitlab_issuer,
        subject=f"project_path:{gitlab_project}:ref_type:branch:ref:main",
    ),
)

# Roles are built in: looked up by name rather than hard-coding their uids (platform:iam:getRole).
ci_role_uid = platform.iam.get_role_output(name=ci_role).uid

# A custom role: what the release pipeline needs to publish images, and nothing more.
image_publisher = platform.iam.Role(
    "image-publisher",
    parent_uid=department.uid,
    name="image-publisher",
    description="Publishes images and their tags",
    capabilities=["CAP_REPO_LIST", "CAP_MANIFEST_CREATE", "CAP_MANIFEST_LIST", "CAP_TAG_CREATE", "CAP_TAG_LIST"],
)

bindings = {
    key: platform.iam.RoleBinding(key, group_uid=group.uid, identity_uid=identity.uid, role_uid=role_uid)
    for key, group, identity, role_uid in [
        ("github-deploy-platform", teams["platform"], github_deploy, ci_role_uid),
        ("github-deploy-data", teams["data"], github_deploy, ci_role_uid),
        ("gitlab-ci-payments", teams["payments"], gitlab_ci, ci_role_uid),
        ("github-deploy-publisher", teams["platform"], github_deploy, image_publisher.uid),
    ]
}

# The platform team's repo for its base images. Deleting a repo deletes its images, so the
# provider refuses unless the program allows it; this example is torn down by `pulumi destroy`.
platform_base = platform.registry.Repo(
    "platform-base",
    parent_uid=teams["platform"].uid,
    name="platform-base",
    description="Base images built by the platform team",
    catalog_tier="CATALOG_TIER_BASE",
    allow_delete=True,
)

# The department's events posted to a webhook.
department_events = platform.events.Subscription("engineering-events", parent_uid=department.uid, sink=events_sink)

# Single sign-on for the department's people, with the CI role by default. The client secret is
# written to the service and never read back; the state keeps the oidc block encrypted.
sso = platform.iam.IdentityProvider(
    "corporate-sso",
    parent_uid=department.uid,
    name="corporate-sso",
    description="Company single sign-on (OIDC)",
    default_role=ci_role_uid,
    oidc=platform.iam.IdentityProviderOidcArgs(
        issuer=sso_issuer,
        client_id=sso_client_id,
        client_secret=sso_client_secret,
        groups_claim="groups",
    ),
)

pulumi.export(
    "tree",
    {
        department_name: department.uid,
        "teams": {key: group.uid for key, group in teams.items()},
        "nested": {key: group.uid for key, group in nested.items()},
        "identities": {"github-deploy": github_deploy.uid, "gitlab-ci": gitlab_ci.uid},
        "roles": {"image-publisher": image_publisher.uid},
        "repos": {"platform-base": platform_base.uid},
        "subscriptions": {"engineering-events": department_events.uid},
        "identityProviders": {"corporate-sso": sso.uid},
    },
)
pulumi.export("roleBindings", [{"key": key, "uid": binding.uid} for key, binding in bindings.items()])
