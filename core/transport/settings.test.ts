/**
 * The settings table (core/transport/settings.ts) and the checks made from it when the engine configures
 * the provider: every row complete, each rule said without echoing the value, a value not known
 * yet (a preview) left alone, and the dynamic provider's configure refusing through the REAL
 * dynamic-provider host before its first call reaches the API.
 */
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { Harness, startHarness } from "../../tools/host/resourceHarness";
import { startHost } from "../../tools/host/host";
import {
  SETTINGS,
  SettingKey,
  configuredFrom,
  providerInputIssues,
  providerSettings,
  resolveSettings,
  withSettings,
} from "./settings";

/** A value each setting takes, and one it refuses. */
const EXAMPLES: Record<SettingKey, [string, string | undefined]> = {
  apiUrl: ["https://api.example.com", "https://user:pass@api.example.com"],
  authUrl: ["http://localhost:8080", "http://auth.example.com"],
  apiVersion: ["v2", "v3"],
  token: ["tok", "two words"],
  identity: ["org/ci", "org//ci"],
  identityToken: ["eyJ.a.b", "eyJ a"],
  identityTokenFile: ["/run/token", undefined],
  timeout: ["0.5", "abc"],
  adopt: ["TRUE", "maybe"],
  maxConcurrency: ["64", "sixteen"],
  batchReads: ["false", "no"],
};

describe("the settings table", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const onlyEnv = (vars: Record<string, string>) => {
    for (const key of Object.keys(process.env)) if (key.startsWith("PLATFORM_")) delete process.env[key];
    Object.assign(process.env, vars);
  };

  test.each(Object.entries(SETTINGS))(
    "%s: its key, variable, rule and docs; the rule takes a good value",
    (key, row) => {
      expect(row.config).toBe(`platform:${key}`);
      expect(row.env).toMatch(/^PLATFORM_[A-Z_]+$/);
      expect(row.rule).not.toBe("");
      expect(row.doc).toMatch(/\.$/);
      const [good, bad] = EXAMPLES[key as SettingKey];
      expect(row.check(good)).toBeUndefined();
      if (bad !== undefined) {
        const issue = row.check(bad);
        expect(issue).toEqual(expect.any(String));
        // Said, never shown: the value may be a password or a token pasted in the wrong place.
        expect(issue).not.toContain(bad);
      }
    },
  );

  test("maxConcurrency takes whole numbers from 1 to 1024 only; both new rows are checked with the others", () => {
    for (const good of ["1", "16", " 1024 "]) expect(SETTINGS.maxConcurrency.check(good)).toBeUndefined();
    for (const bad of ["0", "1025", "2.5", "-4", ""])
      expect(SETTINGS.maxConcurrency.check(bad)).toMatch(/from 1 to 1024/);
    onlyEnv({ PLATFORM_MAX_CONCURRENCY: "0", PLATFORM_BATCH_READS: "yes" });
    expect(providerSettings().issues()).toEqual([
      "PLATFORM_MAX_CONCURRENCY: must be a whole number of requests from 1 to 1024 (how many this process sends at once at most; default 16)",
      "PLATFORM_BATCH_READS: must be true (the default: reads of one kind that overlap are answered together by one List) or false (one GET per read)",
    ]);
  });

  test("configured values win over the environment, key by key; each broken one is named where it came from", () => {
    onlyEnv({ PLATFORM_TIMEOUT: "abc", PLATFORM_API_VERSION: "v2" });
    const settings = providerSettings();
    settings.configure({ get: (key) => ({ "platform:apiVersion": "v3", "platform:adopt": "true" })[key] });
    expect(settings.issues()).toEqual([
      "platform:apiVersion: is not an API version; use v2beta1 (the default) or v2",
      "PLATFORM_TIMEOUT: must be a number of seconds from 0.1 to 3600 (the overall time one provider call or look-up may take; default 120)",
    ]);
    expect(() => settings.refuseBroken("A hint for configured ones.")).toThrow(
      /^platform:apiVersion: .*; PLATFORM_TIMEOUT: .*\. A hint for configured ones\.$/,
    );
    // From the environment alone: no hint about the configuration.
    expect(() => providerSettings().refuseBroken("A hint for configured ones.")).toThrow(
      /^PLATFORM_TIMEOUT: .*default 120\)$/,
    );
  });

  test("each provider's configuration is its own: its calls run on it, nothing outside them sees it", async () => {
    onlyEnv({ PLATFORM_API_URL: "https://env.example.com", PLATFORM_TOKEN: "t" });
    const configured = providerSettings();
    configured.configure({ get: (key) => (key === "platform:apiUrl" ? "https://configured.example.com" : undefined) });
    const other = providerSettings();
    const afterAwait = withSettings(configured, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return resolveSettings().apiUrl;
    });
    expect(await afterAwait).toBe("https://configured.example.com");
    expect(withSettings(other, () => resolveSettings().apiUrl)).toBe("https://env.example.com");
    expect(resolveSettings().apiUrl).toBe("https://env.example.com");
    // A provider called by another (the native provider calls each kind's lifecycle) runs on its caller's.
    expect(withSettings(configured, () => withSettings(other, () => resolveSettings().apiUrl))).toBe(
      "https://configured.example.com",
    );
  });

  test("a value not known yet is not checked (a preview), nor is a missing one (the first request says so)", () => {
    onlyEnv({});
    const settings = providerSettings(
      configuredFrom({ get: (key) => (key === "platform:apiUrl" ? unknownValue : undefined) }),
    );
    expect(settings.issues()).toEqual([]);
    expect(providerInputIssues({ apiUrl: unknownValue, timeout: unknownValue })).toEqual([]);
  });

  test("a provider's inputs: each broken setting by its config key, numbers and booleans as their text", () => {
    expect(
      providerInputIssues({
        apiUrl: "https://admin:hunter2@api.example.com",
        timeout: 30,
        adopt: true,
        apiVersion: "v3",
        version: "1.2.3",
      }),
    ).toEqual([
      "platform:apiUrl: must not carry credentials (user:password@ in the URL); give the token with platform:token instead",
      "platform:apiVersion: is not an API version; use v2beta1 (the default) or v2",
    ]);
    expect(providerInputIssues({ timeout: { seconds: 3 } })).toEqual(["platform:timeout: must be a string"]);
  });
});

describe("the dynamic provider's configure, through the real host", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  test.each([
    [{ "platform:timeout": "abc" }, {}, "platform:timeout: must be a number of seconds from 0.1 to 3600"],
    [{}, { PLATFORM_API_VERSION: "v3" }, "PLATFORM_API_VERSION: is not an API version"],
  ])(
    "config %j with environment %j: the first call (a check) fails naming it, before any request",
    async (config, env, message) => {
      const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
      const host = await startHost({ cwd: h.staged.dir, env: { ...clean, ...env } });
      try {
        await host.configure({ "platform:apiUrl": h.emu.url, "platform:token": h.emu.token, ...config });
        h.emu.clearRequests();
        const news = { parentUid: h.emu.rootUid, name: "never", __provider: h.providers.Group };
        await expect(host.check(h.urn("Group", "never"), {}, news)).rejects.toThrow(message);
        expect(h.calls()).toEqual([]);
      } finally {
        await host.close();
      }
    },
  );
});
