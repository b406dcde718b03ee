/**
 * The Output forms, as a program uses them: under pulumi.runtime.setMocks, with Inputs for
 * arguments and no explicit client (the process-wide client from PLATFORM_API_URL/TOKEN).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { RunningEmulator } from "../emulator";
import { startProviderEmulator } from "../tests/support/providerEmulator";
import * as roles from "../resources/iam/role";
import * as iamLookups from "../resources/iam/lookups";
import * as repos from "../resources/registry/repo/lookups";
import * as tags from "../resources/registry/tag/lookups";
import * as vulnerabilities from "../resources/vulnerabilities/advisory";
import { fakeClient } from "../tests/support/lookupClient";
import { defineLookup, listQuery } from "./lookup";
import { formatIssues } from "./zodIssues";

const resolve = <T>(output: pulumi.Output<T>): Promise<T> => (output as unknown as { promise(): Promise<T> }).promise();

/**
 * A failed Output also rejects its internal isKnown/isSecret promises; a program would fail on
 * those, a test observes the value's.
 */
function failure<T>(output: pulumi.Output<T>): Promise<T> {
  const internals = output as unknown as {
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
    allResources?: () => Promise<unknown>;
  };
  internals.isKnown.catch(() => undefined);
  internals.isSecret.catch(() => undefined);
  internals.allResources?.().catch(() => undefined);
  return resolve(output);
}

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startProviderEmulator({ bulk: { repos: 205, tagsPerRepo: 1 } });
  process.env.PLATFORM_API_URL = emu.url;
  process.env.PLATFORM_TOKEN = emu.token;
});
afterAll(() => emu.close());

describe.each([
  ["update", false],
  ["preview", true],
])("Output forms under setMocks (%s)", (_, dryRun) => {
  beforeAll(() => {
    void pulumi.runtime.setMocks(
      {
        newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
        call: (args) => args.inputs,
      },
      "lookups",
      "test",
      dryRun,
    );
  });

  const iam = { ...roles, ...iamLookups };
  const registry = { ...repos, ...tags };

  test("every getXOutput resolves against the emulator, with Inputs as arguments", async () => {
    const root = pulumi.output(emu.rootUid);
    const repos = await resolve(registry.getReposOutput({ descendantsOf: root, orderBy: pulumi.output("name") }));
    expect(repos.repos).toHaveLength(208); // 205 bulk + 3 samples: two pages
    const nginx = await resolve(registry.getRepoOutput({ name: "nginx", childrenOf: root }));
    expect(nginx.name).toBe("nginx");
    const sameRepo = await resolve(registry.getRepoOutput({ uid: pulumi.output(nginx.uid) }));
    expect(sameRepo.uid).toBe(nginx.uid);
    const tags = await resolve(registry.getTagsOutput({ repoUid: pulumi.output(nginx.uid), orderBy: "name" }));
    expect(tags.tags.map((t) => t.name)).toEqual(["1.27", "1.27.3", "latest"]);
    const advisories = await resolve(
      vulnerabilities.getAdvisoriesOutput({ descendantsOf: root, artifactNames: [pulumi.output("nginx")] }),
    );
    expect(advisories.advisories.map((a) => a.componentName).sort()).toEqual(["openssl", "zlib"]);
    const viewer = await resolve(iam.getRoleOutput({ name: pulumi.output("viewer") }));
    expect(viewer.name).toBe("viewer");
    const roles = await resolve(iam.getRolesOutput({ orderBy: "name" }));
    expect(roles.roles.map((r) => r.name)).toEqual(["editor", "owner", "viewer"]);
    const groups = await resolve(iam.getGroupsOutput({ ids: [root] }));
    expect(groups.groups.map((g) => g.uid)).toEqual([emu.rootUid]);
    const group = await resolve(iam.getGroupOutput({ uid: root }));
    expect(group.uid).toBe(emu.rootUid);
    const identities = await resolve(iam.getIdentitiesOutput({ descendantsOf: root }));
    expect(identities.identities.map((i) => i.name)).toEqual(["dev-owner"]);
  });

  test("an Output form fails with the look-up's message", async () => {
    await expect(failure(iam.getRoleOutput({ name: "no-such-role" }))).rejects.toThrow(
      'getRole: no role matches name "no-such-role"',
    );
  });
});

describe("defineLookup", () => {
  const args = z.strictObject({ n: z.number().int() });
  const lookup = defineLookup(
    "getThing",
    () => args,
    async ({ n }, client) => client.request<{ n: number }>({ method: "GET", domain: "iam", path: `things/${n}` }),
  );

  test("validates before calling the client, naming the argument", async () => {
    const client = fakeClient([]);
    await expect(lookup.get({ n: 1.5 }, { client })).rejects.toThrow(
      "getThing: invalid arguments: n: expected int, received number",
    );
    expect(client.seen).toHaveLength(0);
  });

  test("errors from the client carry the look-up's name and keep the cause", async () => {
    const cause = new Error("the service said no");
    const error = await lookup.get({ n: 1 }, { client: { request: () => Promise.reject(cause) } }).catch((e) => e);
    expect(error.message).toBe("getThing: the service said no");
    expect(error.cause).toBe(cause);
  });
});

test("listQuery sends the spec's snake_case names and leaves out what is unset", () => {
  const query = listQuery(
    {
      descendantsOf: "a",
      childrenOf: "b",
      ids: ["x", "y"],
      orderBy: "created_at desc",
      name: "n",
      inRoot: true,
      ancestorsOf: undefined,
      skip: 3,
      limit: 9,
      artifactNames: [],
    },
    { artifactNames: "artifact_names" },
  );
  expect(query).toEqual({
    "uidp.descendants_of": "a",
    "uidp.children_of": "b",
    "uidp.ids": ["x", "y"],
    order_by: "created_at desc",
    name: "n",
    "uidp.in_root": true,
  });
});

test("formatIssues names nested paths with indexes", () => {
  const schema = z.object({ roles: z.array(z.object({ name: z.string() })) });
  const result = schema.safeParse({ roles: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: 7 }] });
  expect(result.success).toBe(false);
  expect(formatIssues(result.error!)).toBe("roles[3].name: expected string, received number");
});
