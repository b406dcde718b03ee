import { RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "../../tools/host/providerEmulator";
import { fetchClient, listRequests } from "../../tests/support/lookupClient";
import { getAdvisories } from "./advisory";
import { withClient } from "../../core/program/lookup";

const ADVISORIES = 450;
const PATH = "/vulnerabilities/v2beta1/advisories";
let emu: RunningEmulator;
let client: ReturnType<typeof fetchClient>;

beforeAll(async () => {
  emu = await startProviderEmulator({ seed: false, bulk: { repos: 3, advisories: ADVISORIES } });
  client = fetchClient(emu);
});
afterAll(() => emu.close());
beforeEach(() => emu.clearRequests());

test(`all ${ADVISORIES} advisories, newest first, in 3 requests`, async () => {
  const { advisories } = await getAdvisories(
    { descendantsOf: emu.rootUid, orderBy: "created_at desc" },
    withClient(client),
  );
  expect(advisories).toHaveLength(ADVISORIES);
  const times = advisories.map((a) => Date.parse(String(a.createTime)));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  expect(listRequests(emu, PATH)).toHaveLength(Math.ceil(ADVISORIES / 200));
});

test("ascending by creation with skip is the descending list reversed, minus the skipped", async () => {
  const { advisories: down } = await getAdvisories({ orderBy: "created_at desc" }, withClient(client));
  const { advisories: up } = await getAdvisories({ orderBy: "created_at", skip: 60 }, withClient(client));
  expect(up.map((a) => a.uid)).toEqual(
    down
      .map((a) => a.uid)
      .reverse()
      .slice(60),
  );
});

test("artifact and component filters go out as repeated snake_case parameters", async () => {
  const { advisories } = await getAdvisories(
    { descendantsOf: emu.rootUid, artifactNames: ["bulk-repo-1"], componentNames: ["component-1", "component-4"] },
    withClient(client),
  );
  expect(advisories.length).toBeGreaterThan(0);
  expect(
    advisories.every(
      (a) => a.artifactName === "bulk-repo-1" && ["component-1", "component-4"].includes(String(a.componentName)),
    ),
  ).toBe(true);
  const { advisories: all } = await getAdvisories({}, withClient(client));
  expect(advisories).toHaveLength(
    all.filter(
      (a) => a.artifactName === "bulk-repo-1" && ["component-1", "component-4"].includes(String(a.componentName)),
    ).length,
  );
  const query = listRequests(emu, PATH)[0].query;
  expect(query.artifact_names).toBe("bulk-repo-1");
  expect(query.component_names).toEqual(["component-1", "component-4"]);
});

test("aliases, latestEventType and free-text query", async () => {
  const { advisories: all } = await getAdvisories({}, withClient(client));
  const sample = all[17];
  const { advisories: byAlias } = await getAdvisories({ aliases: [String(sample.aliases?.[0])] }, withClient(client));
  expect(byAlias.map((a) => a.uid)).toEqual([sample.uid]);
  const { advisories: fixed } = await getAdvisories({ latestEventType: "fixed" }, withClient(client));
  expect(fixed.length).toBe(
    all.filter((a) => {
      // Documented events set exactly one kind field: the last one's is "fixed" here.
      const last = a.events?.at(-1);
      return last !== undefined && last.fixed !== undefined;
    }).length,
  );
  expect(fixed.length).toBeGreaterThan(0);
  const { advisories: byText } = await getAdvisories({ query: String(sample.advisoryId) }, withClient(client));
  expect(byText.map((a) => a.uid)).toContain(sample.uid);
  const queries = listRequests(emu, PATH).map((r) => r.query);
  expect(queries.some((q) => q.latest_event_type === "fixed")).toBe(true);
});

test("legacyAdvisoryIds finds migrated advisories by the id they had before, sent as legacy_advisory_ids", async () => {
  const { advisories: all } = await getAdvisories({}, withClient(client));
  const migrated = all.filter((a) => a.legacyAdvisoryId !== undefined);
  expect(migrated.length).toBeGreaterThan(1);
  const wanted = [String(migrated[0].legacyAdvisoryId), String(migrated[1].legacyAdvisoryId)];
  emu.clearRequests();
  const { advisories } = await getAdvisories({ legacyAdvisoryIds: wanted }, withClient(client));
  expect(advisories.map((a) => a.uid).sort()).toEqual([migrated[0].uid, migrated[1].uid].sort());
  expect(listRequests(emu, PATH)[0].query.legacy_advisory_ids).toEqual(wanted);
});

test("limit stops early", async () => {
  const { advisories } = await getAdvisories({ limit: 201 }, withClient(client));
  expect(advisories).toHaveLength(201);
  expect(listRequests(emu, PATH).map((r) => r.query.page_size)).toEqual(["200", "1"]);
});

test("bad arguments name the argument", async () => {
  await expect(getAdvisories({ artifactNames: "nginx" } as never, withClient(client))).rejects.toThrow(
    /^getAdvisories: invalid arguments: artifactNames: expected array/,
  );
  await expect(getAdvisories({ componentNames: ["ok", ""] }, withClient(client))).rejects.toThrow(
    "componentNames[1]: must not be empty",
  );
  expect(emu.requests()).toHaveLength(0);
});
