package main

import (
	"fmt"

	"github.com/platform-pulumi/platform-pulumi/sdk/go/platform/events"
	"github.com/platform-pulumi/platform-pulumi/sdk/go/platform/iam"
	"github.com/platform-pulumi/platform-pulumi/sdk/go/platform/registry"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// organization declares the engineering department of examples/org-hierarchy: the same groups, CI
// identities, custom role, role bindings, repo, event subscription and single sign-on. Settings:
// pulumi config set platform:apiUrl <url>; pulumi config set --secret platform:token <token> (or
// PLATFORM_API_URL and PLATFORM_TOKEN); pulumi config set rootUid <uid>; optionally departmentName,
// paymentsName, ledgerParent, githubRepository, gitlabProject, gitlabIssuer, ciRole, eventsSink,
// ssoIssuer, ssoClientId and the secret ssoClientSecret. Unlike index.ts it leaves out the images
// and advisories outputs.
func organization(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	rootUID := cfg.Require("rootUid")
	or := func(key, fallback string) string {
		if value := cfg.Get(key); value != "" {
			return value
		}
		return fallback
	}
	departmentName := or("departmentName", "engineering")
	paymentsName := or("paymentsName", "payments")
	ledgerParent := or("ledgerParent", "payments")
	githubRepository := or("githubRepository", "acme/app")
	gitlabProject := or("gitlabProject", "acme/payments")
	gitlabIssuer := or("gitlabIssuer", "https://gitlab.com")
	ciRole := or("ciRole", "viewer")
	eventsSink := or("eventsSink", "https://hooks.example.com/engineering-events")
	ssoIssuer := or("ssoIssuer", "https://login.example.com")
	ssoClientID := or("ssoClientId", "platform-engineering")
	ssoClientSecret := cfg.GetSecret("ssoClientSecret")

	department, err := iam.NewGroup(ctx, "engineering", &iam.GroupArgs{
		ParentUid:   pulumi.String(rootUID),
		Name:        pulumi.String(departmentName),
		Description: pulumi.String("Engineering department"),
	})
	if err != nil {
		return err
	}

	teamSpecs := []struct{ key, name, description string }{
		{"platform", "platform", "Platform engineering: CI/CD and base images"},
		{"payments", paymentsName, "Payments and billing"},
		{"data", "data", "Data engineering and analytics"},
	}
	teams := map[string]*iam.Group{}
	for _, spec := range teamSpecs {
		team, err := iam.NewGroup(ctx, spec.key, &iam.GroupArgs{
			ParentUid:   department.Uid,
			Name:        pulumi.String(spec.name),
			Description: pulumi.String(spec.description),
		})
		if err != nil {
			return err
		}
		teams[spec.key] = team
	}
	if teams[ledgerParent] == nil {
		return fmt.Errorf(`config ledgerParent: "%s" is not a team (expected one of platform, payments, data)`, ledgerParent)
	}

	nestedSpecs := []struct {
		key, description string
		parent           *iam.Group
	}{
		{"oncall", "Platform on-call rotation", teams["platform"]},
		{"ledger", "Ledger service owners", teams[ledgerParent]},
		{"analytics", "", teams["data"]},
	}
	nested := pulumi.StringMap{}
	for _, spec := range nestedSpecs {
		args := &iam.GroupArgs{ParentUid: spec.parent.Uid, Name: pulumi.String(spec.key)}
		if spec.description != "" {
			args.Description = pulumi.String(spec.description)
		}
		group, err := iam.NewGroup(ctx, spec.key, args)
		if err != nil {
			return err
		}
		nested[spec.key] = group.Uid
	}

	// CI identities: a pipeline proves who it is with its platform's OIDC token; no stored secret.
	githubDeploy, err := iam.NewIdentity(ctx, "github-deploy", &iam.IdentityArgs{
		ParentUid:   teams["platform"].Uid,
		Name:        pulumi.String("github-deploy"),
		Description: pulumi.Sprintf("GitHub Actions on %s, main branch", githubRepository),
		ClaimMatch: iam.IdentityClaimMatchArgs{
			Issuer:  pulumi.String("https://token.actions.githubusercontent.com"),
			Subject: pulumi.Sprintf("repo:%s:ref:refs/heads/main", githubRepository),
		},
	})
	if err != nil {
		return err
	}
	gitlabCI, err := iam.NewIdentity(ctx, "gitlab-ci", &iam.IdentityArgs{
		ParentUid:   teams["payments"].Uid,
		Name:        pulumi.String("gitlab-ci"),
		Description: pulumi.Sprintf("GitLab CI on %s, main branch", gitlabProject),
		ClaimMatch: iam.IdentityClaimMatchArgs{
			Issuer:  pulumi.String(gitlabIssuer),
			Subject: pulumi.Sprintf("project_path:%s:ref_type:branch:ref:main", gitlabProject),
		},
	})
	if err != nil {
		return err
	}

	// Roles are built in: looked up by name rather than hard-coding their uids (platform:iam:getRole).
	ciRoleUID := iam.LookupRoleOutput(ctx, iam.LookupRoleOutputArgs{Name: pulumi.String(ciRole)}).Uid()

	// A custom role: what the release pipeline needs to publish images, and nothing more.
	imagePublisher, err := iam.NewRole(ctx, "image-publisher", &iam.RoleArgs{
		ParentUid:   department.Uid,
		Name:        pulumi.String("image-publisher"),
		Description: pulumi.String("Publishes images and their tags"),
		Capabilities: iam.RoleCapabilitiesItemArray{
			iam.RoleCapabilitiesItem_CAP_REPO_LIST,
			iam.RoleCapabilitiesItem_CAP_MANIFEST_CREATE,
			iam.RoleCapabilitiesItem_CAP_MANIFEST_LIST,
			iam.RoleCapabilitiesItem_CAP_TAG_CREATE,
			iam.RoleCapabilitiesItem_CAP_TAG_LIST,
		},
	})
	if err != nil {
		return err
	}

	bindingSpecs := []struct {
		key      string
		group    *iam.Group
		identity *iam.Identity
		role     pulumi.StringOutput
	}{
		{"github-deploy-platform", teams["platform"], githubDeploy, ciRoleUID},
		{"github-deploy-data", teams["data"], githubDeploy, ciRoleUID},
		{"gitlab-ci-payments", teams["payments"], gitlabCI, ciRoleUID},
		{"github-deploy-publisher", teams["platform"], githubDeploy, imagePublisher.Uid},
	}
	bindings := pulumi.Array{}
	for _, spec := range bindingSpecs {
		binding, err := iam.NewRoleBinding(ctx, spec.key, &iam.RoleBindingArgs{
			GroupUid:    spec.group.Uid,
			IdentityUid: spec.identity.Uid,
			RoleUid:     spec.role,
		})
		if err != nil {
			return err
		}
		bindings = append(bindings, pulumi.Map{"key": pulumi.String(spec.key), "uid": binding.Uid})
	}

	// The platform team's repo for its base images. Deleting a repo deletes its images, so the
	// provider refuses unless the program allows it; this example is torn down by `pulumi destroy`.
	platformBase, err := registry.NewRepo(ctx, "platform-base", &registry.RepoArgs{
		ParentUid:   teams["platform"].Uid,
		Name:        pulumi.String("platform-base"),
		Description: pulumi.String("Base images built by the platform team"),
		CatalogTier: registry.RepoCatalogTier_CATALOG_TIER_BASE,
		AllowDelete: pulumi.Bool(true),
	})
	if err != nil {
		return err
	}

	// The department's events posted to a webhook.
	departmentEvents, err := events.NewSubscription(ctx, "engineering-events", &events.SubscriptionArgs{
		ParentUid: department.Uid,
		Sink:      pulumi.String(eventsSink),
	})
	if err != nil {
		return err
	}

	// Single sign-on for the department's people, with the CI role by default. The client secret is
	// written to the service and never read back; the state keeps the oidc block encrypted.
	sso, err := iam.NewIdentityProvider(ctx, "corporate-sso", &iam.IdentityProviderArgs{
		ParentUid:   department.Uid,
		Name:        pulumi.String("corporate-sso"),
		Description: pulumi.String("Company single sign-on (OIDC)"),
		DefaultRole: ciRoleUID,
		Oidc: iam.IdentityProviderOidcArgs{
			Issuer:       pulumi.String(ssoIssuer),
			ClientId:     pulumi.String(ssoClientID),
			ClientSecret: ssoClientSecret,
			GroupsClaim:  pulumi.String("groups"),
		},
	})
	if err != nil {
		return err
	}

	teamUIDs := pulumi.StringMap{}
	for key, team := range teams {
		teamUIDs[key] = team.Uid
	}
	ctx.Export("tree", pulumi.Map{
		departmentName:      department.Uid,
		"teams":             teamUIDs,
		"nested":            nested,
		"identities":        pulumi.StringMap{"github-deploy": githubDeploy.Uid, "gitlab-ci": gitlabCI.Uid},
		"roles":             pulumi.StringMap{"image-publisher": imagePublisher.Uid},
		"repos":             pulumi.StringMap{"platform-base": platformBase.Uid},
		"subscriptions":     pulumi.StringMap{"engineering-events": departmentEvents.Uid},
		"identityProviders": pulumi.StringMap{"corporate-sso": sso.Uid},
	})
	ctx.Export("roleBindings", bindings)
	return nil
}
