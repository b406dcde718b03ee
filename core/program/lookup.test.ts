/**
 * The Output forms, as a program uses them: under pulumi.runtime.setMocks, with Inputs for
 * arguments and no explicit client (the process-wide client from PLATFORM_API_URL/TOKEN).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import * as roles from "../../resources/iam/role/lookups";
import * as groupLookups from "../../resources/iam/group/lookups";
import * as identityLookups from "../../resources/iam/identity/lookups";
import * as repos from "../../resources/registry/repo/lookups";
import * as tags from "../../resources/registry/tag/lookups";
import * as vulnerabilities from "../../resources/vulnerabilities/advisory";
import { fakeClient } from "../../tests/support/lookupClient";
import { defineLookup, exactlyOne, listQuery, withClient } from "./lookup";
import { formatIssues } from "../common/zodIssues";

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

  const iam = { ...roles, ...groupLookups, ...identityLookups };
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
    await expect(lookup.get({ n: 1.5 }, withClient(client))).rejects.toThrow(
      "getThing: invalid arguments: n: expected int, received number",
    );
    expect(client.seen).toHaveLength(0);
  });

  test("errors from the client carry the look-up's name and keep the cause", async () => {
    const cause = new Error("the service said no");
    const error = await lookup.get({ n: 1 }, withClient({ request: () => Promise.reject(cause) })).catch((e) => e);
    expect(error.message).toBe("getThing: the service said no");
    expect(error.cause).toBe(cause);
  });
});

/** A promise and its resolve, to hold a mock resource's create until the test lets it finish. */
function held<T>(): { promise: Promise<T>; release(value: T): void } {
  let release!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (release = resolve));
  return { promise, release };
}

/** Lets every callback queued so far run (and what they queue in turn), a number of rounds. */
async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe.each([
  ["update", false],
  ["preview", true],
])("Output forms with dependsOn under setMocks (%s)", (_, dryRun) => {
  /** Creates of resources named "held-…" finish when the test says; others at once. */
  const creates = new Map<string, ReturnType<typeof held<void>>>();
  beforeAll(() => {
    void pulumi.runtime.setMocks(
      {
        newResource: async (args) => {
          await creates.get(args.name)?.promise;
          // In a preview a resource to be created has no id yet: the mock gives none.
          return { id: dryRun ? undefined : `${args.name}-id`, state: args.inputs };
        },
        call: (args) => args.inputs,
      },
      "lookups",
      "test",
      dryRun,
    );
  });

  const lookup = defineLookup(
    "getThing",
    () => z.strictObject({ n: z.number().int() }),
    async ({ n }, client) => client.request<{ n: number }>({ method: "GET", domain: "iam", path: `things/${n}` }),
  );
  class Thing extends pulumi.CustomResource {
    constructor(name: string, opts?: pulumi.CustomResourceOptions) {
      super("test:index:Thing", name, {}, opts);
    }
  }
  const thing = (name: string, opts?: pulumi.CustomResourceOptions) => new Thing(name, opts);
  class Bundle extends pulumi.ComponentResource {
    constructor(name: string) {
      super("test:index:Bundle", name);
      thing(`${name}-inner`, { parent: this });
      this.registerOutputs({});
    }
  }

  test.each([
    ["a resource", (name: string) => thing(name)],
    ["an Output of a list of resources", (name: string) => pulumi.output([thing(name)])],
    ["a component, by the resources under it", (name: string) => new Bundle(name.replace(/-inner$/, ""))],
  ])("the call waits until %s named in dependsOn is created", async (_what, declare) => {
    const name = `held-${creates.size}-inner`;
    const create = held<void>();
    creates.set(name, create);
    const client = fakeClient([{ n: 7 }]);
    const result = lookup.output({ n: 7 }, withClient(client, { dependsOn: declare(name) }));
    await settle();
    expect(client.seen).toHaveLength(0);
    create.release();
    if (dryRun) {
      // Like Pulumi's invokeOutput against a resource still to be created: the result is unknown, no call made.
      await settle();
      expect(await (result as unknown as { isKnown: Promise<boolean> }).isKnown).toBe(false);
      expect(client.seen).toHaveLength(0);
    } else {
      await expect(resolve(result)).resolves.toEqual({ n: 7 });
      expect(client.seen).toHaveLength(1);
    }
  });

  test("a dependsOn value that is not a resource is refused, naming the look-up", async () => {
    const client = fakeClient([]);
    const options = withClient(client, { dependsOn: "not-a-resource" as unknown as pulumi.Resource });
    await expect(failure(lookup.output({ n: 1 }, options))).rejects.toThrow(
      "getThing: dependsOn must name resources; it was given string",
    );
    expect(client.seen).toHaveLength(0);
  });
});

describe("options of the plain form", () => {
  const lookup = defineLookup(
    "getThing",
    () => z.strictObject({ n: z.number().int() }),
    async ({ n }, client) => client.request<{ n: number }>({ method: "GET", domain: "iam", path: `things/${n}` }),
  );

  test("Pulumi's InvokeOptions are accepted; the client is the one configured (here the emulator's)", async () => {
    const options: pulumi.InvokeOptions = { version: "1.2.3", pluginDownloadURL: "https://example.invalid" };
    const viewer = await roles.getRole({ name: "viewer" }, options);
    expect(viewer.name).toBe("viewer");
  });

  test("the deprecated { client } form still calls that client, with one warning for the process", async () => {
    const warn = jest.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    try {
      const client = fakeClient([{ n: 1 }, { n: 2 }]);
      const legacy = { client } as pulumi.InvokeOptions;
      await expect(lookup.get({ n: 1 }, legacy)).resolves.toEqual({ n: 1 });
      await expect(lookup.get({ n: 2 }, legacy)).resolves.toEqual({ n: 2 });
      expect(client.seen.map((r) => r.path)).toEqual(["things/1", "things/2"]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toMatch(/^getThing: the look-up option "client" is deprecated/);
    } finally {
      warn.mockRestore();
    }
  });

  test("a deprecated client that is not one is refused before any request", async () => {
    const legacy = { client: "https://api.example" } as pulumi.InvokeOptions;
    await expect(lookup.get({ n: 1 }, legacy)).rejects.toThrow("getThing: options.client is not an API client");
  });
});

test("the published declarations of look-ups name Pulumi's option types and no internal one", () => {
  const dist = path.join(__dirname, "..", "..");
  const declarations = [path.join(dist, "index.d.ts"), ...declarationFiles(path.join(dist, "resources"))];
  let lookups = 0;
  for (const file of declarations) {
    const text = fs.readFileSync(file, "utf8");
    expect({ file, internal: text.match(/\b(ApiClient|LookupOptions|ApiRequest)\b/g) }).toEqual({
      file,
      internal: null,
    });
    for (const [, name, params] of text.matchAll(/export declare function (get\w+)\(([^;]*)\):/g)) {
      lookups++;
      const expected = name.endsWith("Output") ? "pulumi.InvokeOutputOptions" : "pulumi.InvokeOptions";
      expect({ name, options: /options\?: ([\w.]+)/.exec(params)?.[1] }).toEqual({ name, options: expected });
    }
  }
  expect(lookups).toBeGreaterThanOrEqual(40);
});

function declarationFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".d.ts"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

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

test("exactlyOne counts records in their own plural", () => {
  const two = [{ uid: "a/1" }, { uid: "a/2" }];
  expect(() => exactlyOne("identity", two, 'named "ci"')).toThrow(
    /^2 identities match named "ci" \(uids: a\/1, a\/2\)/,
  );
  expect(() => exactlyOne("identity", [], 'named "ci"')).toThrow(/may list identities there$/);
  expect(() => exactlyOne("group", two, "x")).toThrow(/^2 groups match/);
  expect(() => exactlyOne("advisory", two, "x")).toThrow(/^2 advisories match/);
  expect(() => exactlyOne("identity provider", [], "x")).toThrow(/may list identity providers there$/);
});
