/**
 * No page of docs/ disagrees with the settings table (core/transport/settings.ts SETTINGS, written into
 * docs/installation-configuration.md by tools/generate/docs/settingsTable.ts): every config key and
 * environment variable a page names is a setting's, a key paired with a variable is paired as in the
 * table, a default stated beside a key is the table's, and a sentence saying whether settings are
 * stored with the resources agrees with SETTINGS_STORAGE for the way it names, or links to the one
 * statement of it ("Where settings are kept") when it names no single way.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { headingSlug } from "../tools/generate/docs/markdown";
import {
  SETTINGS_BEGIN,
  SETTINGS_END,
  SETTINGS_STORAGE,
  STORAGE_BEGIN,
  STORAGE_END,
  STORAGE_HEADING,
  settingsStorage,
} from "../tools/generate/docs/settingsTable";
import { SETTINGS } from "../core/transport/settings";
import { repoRoot } from "../tools/host/stage";

/** Variables named PLATFORM_… in the docs that are not settings, each with what it is. */
const NOT_SETTINGS: Readonly<Record<string, string>> = {
  PLATFORM_DRIFT_UNDER: "a repository variable of the drift report's workflow, the group to report on",
};

const settings = Object.values(SETTINGS) as readonly { config: string; env: string; defaultValue?: string }[];
const byKey = new Map(settings.map((setting) => [setting.config.slice("platform:".length), setting]));
const envs = new Set(settings.map((setting) => setting.env));
const STORAGE_ANCHOR = `#${headingSlug(STORAGE_HEADING)}`;

/** The text with the generated blocks (the table and the storage statements) left out. */
function handWritten(text: string): string {
  let out = text;
  for (const [begin, end] of [
    [SETTINGS_BEGIN, SETTINGS_END],
    [STORAGE_BEGIN, STORAGE_END],
  ]) {
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from >= 0 && to > from) out = out.slice(0, from) + out.slice(to + end.length);
  }
  return out;
}

/** The prose's sentences, code blocks left out, each on one line; a heading or a table row is one. */
function sentences(text: string): string[] {
  const prose = text.replace(/^ {0,3}```[\s\S]*?^ {0,3}```/gm, "");
  return prose
    .split(/\n\s*\n|\n(?=\s*[|#])|(?<=\|)\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " ").trim())
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?])\s+(?=[A-Z*[`(])/));
}

/** How the page `file` disagrees with the settings table, each as "file: what". */
function settingsDisagreements(file: string, text: string): string[] {
  const found: string[] = [];
  const own = handWritten(text);
  for (const match of own.matchAll(/\bplatform:([a-z][A-Za-z]*)\b(?!:)/g))
    if (!byKey.has(match[1])) found.push(`${file}: platform:${match[1]} is no setting's config key`);
  for (const match of own.matchAll(/\bPLATFORM_[A-Z_]*[A-Z]\b/g))
    if (!envs.has(match[0]) && !(match[0] in NOT_SETTINGS))
      found.push(`${file}: ${match[0]} is no setting's environment variable`);
  const pairs = [
    ...[...own.matchAll(/platform:(\w+)`?\s*(?:\/|\(or|or|,|\|)\s*`?(PLATFORM_\w+)/g)].map((m) => [m[1], m[2]]),
    ...[...own.matchAll(/(PLATFORM_\w+)(?:=\w+)?`?\s+is\s+`?platform:(\w+)/g)].map((m) => [m[2], m[1]]),
  ];
  for (const [key, env] of pairs) {
    const setting = byKey.get(key);
    if (setting && setting.env !== env)
      found.push(`${file}: platform:${key} is paired with ${env}; its variable is ${setting.env}`);
  }
  for (const match of own.matchAll(/platform:(\w+)`[^.()\n]{0,100}\(default `?([^`)\s]+)/g)) {
    const setting = byKey.get(match[1]);
    if (setting && setting.defaultValue !== match[2])
      found.push(
        `${file}: platform:${match[1]} is said to default to ${match[2]}; its default is ${setting.defaultValue ?? "none"}`,
      );
  }
  for (const sentence of sentences(own)) {
    if (!/\bsettings?\b|\bconfig\b/i.test(sentence) && !/platform:[a-z]\w*\b(?!:)|PLATFORM_[A-Z]/.test(sentence))
      continue;
    // A claim of storage in the stack's state (a secret kept in CI's own store is another matter).
    if (!/\bstor(e|ed|es|ing)\b/i.test(sentence) || !/\bstate\b|with the resources|nowhere/i.test(sentence)) continue;
    if (sentence.includes(STORAGE_ANCHOR)) continue;
    const ways = (["dynamic", "native"] as const).filter((way) =>
      (way === "dynamic" ? /dynamic|npm package|classes|pulumi-nodejs/i : /native|plugin/i).test(sentence),
    );
    if (ways.length !== 1) {
      found.push(`${file}: "${sentence}" says how settings are stored without naming one way; link ${STORAGE_ANCHOR}`);
      continue;
    }
    const saysStored = !/\b(never|not|nowhere|no)\b/i.test(sentence);
    if (saysStored !== SETTINGS_STORAGE[ways[0]].stored)
      found.push(
        `${file}: "${sentence}" says the ${ways[0]} way ${saysStored ? "stores" : "does not store"} its settings`,
      );
  }
  return found;
}

function docsPages(): string[] {
  return fs
    .readdirSync(path.join(repoRoot, "docs"), { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith(".md"))
    .map((entry) => `docs/${entry.split(path.sep).join("/")}`)
    .sort();
}

test("every page of docs/ agrees with the settings table: keys, variables, their pairs, defaults and where settings are kept", () => {
  const installation = fs.readFileSync(path.join(repoRoot, "docs", "installation-configuration.md"), "utf8");
  expect(installation).toContain(settingsStorage());
  const pages = docsPages();
  expect(pages.length).toBeGreaterThan(10);
  expect(
    pages.flatMap((file) => settingsDisagreements(file, fs.readFileSync(path.join(repoRoot, file), "utf8"))),
  ).toEqual([]);
});

test("the check finds an unknown key or variable, a wrong pair, a wrong default and a storage claim that disagrees", () => {
  const page = [
    "Set `platform:apiUrll` or `PLATFORM_API_URLL`; `platform:token` / `PLATFORM_IDENTITY` logs in.",
    "Each call takes at most `platform:timeout` seconds (default 60), `type: platform:iam:Group` aside.",
    "| `platform:maxConcurrency` | `PLATFORM_BATCH_READS` | requests at once, 1 to 1024 (default 8) |",
    "Settings are read when a call is made, never stored with the resources.",
    "",
    "The native provider never stores its settings in the state.",
    "The dynamic resources never store their settings in the state.",
    `Whether settings are stored in the state: [here](installation-configuration.md${STORAGE_ANCHOR}).`,
    "A repo's `allowDelete` is stored in the state.",
    "| `platform:adopt` | stored nowhere |",
    "```sh\nexport PLATFORM_DRIFT_UNDER=x\n```",
  ].join("\n");
  expect(settingsDisagreements("p.md", page)).toEqual([
    "p.md: platform:apiUrll is no setting's config key",
    "p.md: PLATFORM_API_URLL is no setting's environment variable",
    "p.md: platform:token is paired with PLATFORM_IDENTITY; its variable is PLATFORM_TOKEN",
    "p.md: platform:maxConcurrency is paired with PLATFORM_BATCH_READS; its variable is PLATFORM_MAX_CONCURRENCY",
    "p.md: platform:timeout is said to default to 60; its default is 120",
    "p.md: platform:maxConcurrency is said to default to 8; its default is 16",
    `p.md: "Settings are read when a call is made, never stored with the resources." says how settings are stored without naming one way; link ${STORAGE_ANCHOR}`,
    `p.md: "The native provider never stores its settings in the state." says the native way does not store its settings`,
    `p.md: "| \`platform:adopt\` | stored nowhere |" says how settings are stored without naming one way; link ${STORAGE_ANCHOR}`,
  ]);
});
