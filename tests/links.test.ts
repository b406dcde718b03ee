/**
 * The link check: every relative link of README.md, CONTRIBUTING.md, bench/README.md and the pages under docs/
 * points at a file or folder of the repository, and every anchor (`#…`, in the same document or
 * another Markdown file) at one of that document's headings, by GitHub's rules
 * (tools/generate/docs/markdown.ts). A page of docs/ is published without the rest of the
 * repository, so its relative links stay inside docs/ (source files, examples and tests are
 * linked by absolute URL). Links with a scheme (https:, mailto:) are not followed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { anchorsOf, headingSlug, linksOf } from "../tools/generate/docs/markdown";
import { repoRoot } from "../tools/host/stage";

/** The documents checked, as repository paths. */
function documents(): string[] {
  const docs = fs
    .readdirSync(path.join(repoRoot, "docs"), { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith(".md"))
    .map((entry) => `docs/${entry.split(path.sep).join("/")}`);
  return ["README.md", "CONTRIBUTING.md", "bench/README.md", ...docs.sort()];
}

/**
 * What is wrong with each link of `file` (a path below `root`), as "file: link: reason"; a link
 * of a file under `published` (a folder below `root`) must stay inside that folder.
 */
function brokenLinks(root: string, file: string, published = "docs"): string[] {
  const broken: string[] = [];
  const text = fs.readFileSync(path.join(root, file), "utf8");
  for (const link of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const [target, anchor] = link.split("#", 2) as [string, string | undefined];
    const here = path.join(root, file);
    const resolved = target ? path.resolve(path.dirname(here), decodeURI(target)) : here;
    if (!resolved.startsWith(root + path.sep)) {
      broken.push(`${file}: ${link}: points outside the repository`);
      continue;
    }
    const folder = path.join(root, published);
    if (here.startsWith(folder + path.sep) && !resolved.startsWith(folder + path.sep)) {
      broken.push(`${file}: ${link}: points outside ${published}/, which is published alone`);
      continue;
    }
    if (!fs.existsSync(resolved)) {
      broken.push(`${file}: ${link}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith(".md")) {
      broken.push(`${file}: ${link}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchorsOf(fs.readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor)))
      broken.push(`${file}: ${link}: ${path.relative(root, resolved)} has no heading #${anchor}`);
  }
  return broken;
}

test("every relative link of README.md, CONTRIBUTING.md, bench/README.md and docs/ points at a file (a page of docs/ at one inside docs/), and every anchor at a heading", () => {
  const files = documents();
  expect(files).toEqual(
    expect.arrayContaining(["bench/README.md", "docs/_index.md", "docs/installation-configuration.md"]),
  );
  expect(files.flatMap((file) => brokenLinks(repoRoot, file))).toEqual([]);
});

test("the check finds a missing file, a missing heading, a docs page's link out of docs/ and a repeated heading's anchor, as GitHub numbers them", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-links-"));
  try {
    fs.writeFileSync(
      path.join(root, "a.md"),
      [
        "# Moving a stack: `pulumi up` (again)",
        "## Notes",
        "## Notes",
        "```md",
        "# Not a heading",
        "[in code](nowhere.md)",
        "```",
        "[ok](b.md#the-end) [ok](#notes-1) [ok](#moving-a-stack-pulumi-up-again) [web](https://example.com/x)",
        "[gone](missing.md) [no heading](b.md#the-start) [not in code](#not-a-heading) `[code](nowhere.md)`",
      ].join("\n"),
    );
    fs.writeFileSync(path.join(root, "b.md"), "## The end\n");
    fs.mkdirSync(path.join(root, "docs", "guides"), { recursive: true });
    fs.writeFileSync(path.join(root, "docs", "index.md"), "# Index\n");
    fs.writeFileSync(
      path.join(root, "docs", "guides", "c.md"),
      "[ok](../index.md#index) [source](../../b.md) [web](https://example.com/b.md)\n",
    );
    expect(brokenLinks(root, "a.md")).toEqual([
      "a.md: missing.md: no such file",
      "a.md: b.md#the-start: b.md has no heading #the-start",
      "a.md: #not-a-heading: a.md has no heading #not-a-heading",
    ]);
    expect(brokenLinks(root, "docs/guides/c.md")).toEqual([
      "docs/guides/c.md: ../../b.md: points outside docs/, which is published alone",
    ]);
    expect(headingSlug("An interrupted `pulumi up`")).toBe("an-interrupted-pulumi-up");
    expect(headingSlug("Limits of dynamic providers, and what this package does about them")).toBe(
      "limits-of-dynamic-providers-and-what-this-package-does-about-them",
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
