/**
 * Describing a kind and constructing its resource load no validation library: zod is loaded
 * by the check (on its first call) and by the look-ups, never by a kind's description, the
 * lifecycle or a resource class. Measured in a fresh process, where nothing is cached yet.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const dist = path.resolve(__dirname, "..", "..");

/** The modules (relative to dist/) that required zod while `entries` were loaded. */
function zodRequirers(entries: string[]): string[] {
  const script = `
    const Module = require("node:module");
    const path = require("node:path");
    const load = Module._load;
    const requirers = new Set();
    Module._load = function (request, parent, ...rest) {
      if (request === "zod" || request.startsWith("zod/")) requirers.add(path.relative(${JSON.stringify(dist)}, parent.filename));
      return load.call(this, request, parent, ...rest);
    };
    for (const entry of ${JSON.stringify(entries)}) require(path.join(${JSON.stringify(dist)}, entry));
    process.stdout.write(JSON.stringify([...requirers].sort()));
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
}

const OURS =
  /^(core\/(model\/kind|runtime\/lifecycle|common\/values|runtime\/changes|model\/rules|runtime\/adoption|runtime\/resourceError)\.js|resources\/.*)$/;

test("kinds, the lifecycle and the resource classes require no zod themselves", () => {
  const requirers = zodRequirers([
    "resources/iam/group/resource.js",
    "resources/iam/identity/resource.js",
    "resources/iam/roleBinding/resource.js",
    "resources/iam/groupProvider.js",
    "resources/iam/identity/provider.js",
    "resources/iam/roleBinding/provider.js",
  ]);
  expect(requirers.filter((file) => OURS.test(file))).toEqual([]);
  expect(requirers).not.toContain("core/model/check.js");
  expect(requirers).not.toContain("core/model/fields.js");
});

test("the check loads zod when it first runs", () => {
  // The control: the same probe sees a module that does require zod.
  expect(zodRequirers(["core/model/check.js"])).toEqual(
    expect.arrayContaining(["core/model/check.js", "core/model/fields.js"]),
  );
});
