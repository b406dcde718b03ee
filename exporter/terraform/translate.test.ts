/**
 * A state's attributes in the record's terms, and the declared fields in which it differs: blocks
 * whose members the record holds in two places (a repo's sync_config), blocks that build one field
 * together (an account association's github blocks), sets compared unordered, instants as times.
 */
import repoProvider = require("../../resources/registry/repo/provider");
import associationProvider = require("../../resources/iam/accountAssociation/provider");
import roleProvider = require("../../resources/iam/role/provider");
import { differences, translate } from "./translate";
import { MANAGED_TYPES } from "../../resources/terraform/vendorProvider";

test("a repo's sync_config: what the program sets, what the service adds; the tier in GA's spelling", () => {
  const translated = translate(MANAGED_TYPES.chainguard_image_repo, {
    id: "g/r",
    name: "app",
    parent_id: "g",
    tier: "FIPS",
    readme: null,
    sync_config: {
      source: "g/src",
      expiration: "2030-01-01T00:00:00Z",
      unique_tags: true,
      grace_period: false,
      amazon: "123",
      google: null,
      azure: null,
      apko_overlay: null,
    },
  });
  expect(Object.fromEntries(translated.fields)).toEqual({
    uid: "g/r",
    name: "app",
    parentUid: "g",
    catalogTier: "CATALOG_TIER_FIPS",
    "syncConfig.source": "g/src",
    "syncConfig.amazon": "123",
    "syncState.expirationTime": "2030-01-01T00:00:00Z",
    "syncState.uniqueTags": true,
  });
  const record = {
    uid: "g/r",
    name: "app",
    catalogTier: "CATALOG_TIER_FIPS",
    sync_config: { source: "g/src", amazon: "123", expirationTime: "2031-01-01T00:00:00Z" },
  };
  // The service's own sync state is not declared: its expiration differing is not a difference.
  expect(differences(repoProvider.kind, MANAGED_TYPES.chainguard_image_repo, record, translated)).toEqual([]);
  expect(
    differences(
      repoProvider.kind,
      MANAGED_TYPES.chainguard_image_repo,
      { ...record, catalogTier: "CATALOG_TIER_BASE", sync_config: { source: "g/other" }, description: "new" },
      translated,
    ),
  ).toEqual(["catalogTier", "description", "syncConfig.amazon", "syncConfig.source"]);
});

test("an account association's github and github_installation blocks are its app installations, by app id", () => {
  const translated = translate(MANAGED_TYPES.chainguard_account_associations, {
    id: "g",
    name: "a",
    group: "g",
    github: { host: "github.com", app_id: 12, installation_id: 34, name: "acme" },
    github_installation: [
      { app_id: 12, installation_id: 56, name: null },
      { app_id: 78, installation_id: 90, name: "other" },
    ],
  });
  expect(translated.fields.get("github")).toEqual({
    appInstallations: {
      "12": { installations: [{ installationId: "34", name: "acme" }, { installationId: "56" }] },
      "78": { installations: [{ installationId: "90", name: "other" }] },
    },
  });
  // The computed host, which the API no longer answers, is no configuration's: nothing to say.
  expect(translated.uncounterparted).toEqual([]);
  const record = {
    uid: "g",
    name: "a",
    github: {
      appInstallations: {
        "78": { installations: [{ installationId: "90", name: "other" }] },
        "12": { installations: [{ installationId: "34", name: "acme" }, { installationId: "56" }] },
      },
    },
  };
  expect(
    differences(associationProvider.kind, MANAGED_TYPES.chainguard_account_associations, record, translated),
  ).toEqual([]);
});

test("capabilities are a set: compared in any order; a name the API lacks is said", () => {
  const translated = translate(MANAGED_TYPES.chainguard_role, {
    id: "r",
    parent_id: "g",
    name: "p",
    capabilities: ["repo.list", "groups.list", "no.such"],
  });
  expect(translated.unspellable).toEqual(['capabilities: the capability "no.such" has no value in this API']);
  const record = { uid: "r", parentUid: "g", name: "p", capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"] };
  expect(differences(roleProvider.kind, MANAGED_TYPES.chainguard_role, record, translated)).toEqual(["capabilities"]);
  const same = translate(MANAGED_TYPES.chainguard_role, {
    ...{ id: "r", parent_id: "g", name: "p" },
    capabilities: ["repo.list", "groups.list"],
  });
  expect(differences(roleProvider.kind, MANAGED_TYPES.chainguard_role, record, same)).toEqual([]);
});
