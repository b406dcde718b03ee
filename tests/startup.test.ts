/**
 * What `require("platform-pulumi")` loads: a program requires the package on every preview, so
 * only what a program needs at once may load with it. The validation and transport libraries
 * (zod, undici, ajv, re2js) load on first use: in the provider host's first call, or a look-up's.
 * Loaded files are counted in a fresh process; the time it takes is bench/'s figure [6], not a test's.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const dist = path.resolve(__dirname, "..");
const DEFERRED = ["zod", "undici", "ajv", "ajv-formats", "re2js"];

/** Which of DEFERRED are in require's cache after `script` ran in a fresh process. */
function loadedAfter(script: string): string[] {
  const probe = `
    require("@pulumi/pulumi");
    const platform = require(${JSON.stringify(dist)});
    Promise.resolve((async () => { ${script} })()).then(() => {
      const files = Object.keys(require.cache);
      const loaded = ${JSON.stringify(DEFERRED)}.filter((name) => files.some((f) => f.includes("/node_modules/" + name + "/")));
      process.stdout.write(JSON.stringify(loaded));
    });
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" })) as string[];
}

test("requiring the package loads no zod, undici, ajv or re2js", () => {
  expect(loadedAfter("")).toEqual([]);
});

test("touching every namespace and resource class loads none of them either", () => {
  const script = `for (const ns of [platform.iam, platform.registry, platform.vulnerabilities])
    for (const value of Object.values(ns)) void value;`;
  expect(loadedAfter(script)).toEqual([]);
});

test("the probe sees zod once a look-up validates its arguments (the control)", () => {
  const script = `await platform.iam.getGroups({ limit: -1 }).catch(() => undefined);`;
  expect(loadedAfter(script)).toContain("zod");
});
