/**
 * The committed Go SDK is fetched by Go's own tools from a tag, as a Go user gets it: a clone of
 * the committed HEAD tagged `sdk/go/v<version>` (the tag a Go module in the folder sdk/go needs,
 * which the release workflow pushes beside v<version>) stands in for GitHub, git's `insteadOf`
 * pointing github.com/platform-pulumi/platform-pulumi at it, and `go get
 * github.com/platform-pulumi/platform-pulumi/sdk/go@v<version>` goes to it directly (GOPRIVATE),
 * as it would to GitHub. Every other module comes from the machine's module cache, read as a
 * file-based module proxy, into a module cache of the test's own; a tiny program declaring a group
 * through the SDK then builds.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "../tools/host/stage";

jest.setTimeout(900_000);

const MODULE = "github.com/platform-pulumi/platform-pulumi/sdk/go";
const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

const PROGRAM = `package main

import (
	"github.com/platform-pulumi/platform-pulumi/sdk/go/platform/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		group, err := iam.NewGroup(ctx, "team", &iam.GroupArgs{ParentUid: pulumi.String("root"), Name: pulumi.String("team")})
		if err != nil {
			return err
		}
		ctx.Export("uid", group.Uid)
		return nil
	})
}
`;

let folder: string;

afterAll(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

test("`go get …/sdk/go@v<version>` fetches the committed Go SDK from a tag of a clone, and a program using it builds", () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "platform-pulumi-go-sdk-"));
  const clone = path.join(folder, "platform-pulumi");
  execFileSync("git", ["clone", "--quiet", repoRoot, clone]);
  execFileSync("git", ["-C", clone, "tag", `sdk/go/v${version}`]);
  const app = path.join(folder, "app");
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, "go.mod"), "module example.com/app\n\ngo 1.25\n");
  fs.writeFileSync(path.join(app, "main.go"), PROGRAM);
  const go = (args: string[]) =>
    spawnSync("go", args, {
      cwd: app,
      encoding: "utf8",
      env: {
        ...process.env,
        GOMODCACHE: path.join(folder, "mod"),
        // The machine's module cache serves every other module; the proxy after it only what it lacks.
        GOPROXY: `file://${execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim()}/cache/download,${execFileSync(
          "go",
          ["env", "GOPROXY"],
          { encoding: "utf8" },
        ).trim()}`,
        GOPRIVATE: "github.com/platform-pulumi",
        GOFLAGS: "-mod=mod -modcacherw",
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: `url.file://${clone}.insteadOf`,
        GIT_CONFIG_VALUE_0: "https://github.com/platform-pulumi/platform-pulumi",
        GIT_ALLOW_PROTOCOL: "file:https",
        GIT_TERMINAL_PROMPT: "0",
      },
    });
  // Pulumi's Go SDK at the version the Pulumi CLI here is built from (tools/pulumi-cli/go.mod), which the cache holds.
  const get = go(["get", `${MODULE}@v${version}`, `github.com/pulumi/pulumi/sdk/v3@${pulumiSdkVersion()}`]);
  expect({ status: get.status, stderr: get.status === 0 ? "" : get.stderr }).toEqual({ status: 0, stderr: "" });
  // What Go fetched is the committed sdk/go at the tag, file for file.
  const fetched = path.join(folder, "mod", `${MODULE}@v${version}`);
  const committed = execFileSync("git", ["-C", clone, "ls-tree", "-r", "--name-only", `sdk/go/v${version}`, "sdk/go"], {
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .map((file) => file.slice("sdk/go/".length))
    .sort();
  // Go adds the repository's LICENSE to a module in a folder that has none of its own.
  expect(listFiles(fetched)).toEqual([...committed, "LICENSE"].sort());
  expect(fs.readFileSync(path.join(fetched, "LICENSE"), "utf8")).toBe(
    fs.readFileSync(path.join(repoRoot, "LICENSE"), "utf8"),
  );
  const build = go(["build", "-trimpath", "-o", path.join(folder, "app-binary"), "."]);
  expect({ status: build.status, stderr: build.status === 0 ? "" : build.stderr }).toEqual({ status: 0, stderr: "" });
  expect(fs.statSync(path.join(folder, "app-binary")).size).toBeGreaterThan(0);
  expect(fs.readFileSync(path.join(app, "go.mod"), "utf8")).toMatch(new RegExp(`^\\s*${MODULE} v${version}$`, "m"));
});

/** The version of github.com/pulumi/pulumi/pkg/v3 that tools/pulumi-cli/go.mod builds the CLI from. */
function pulumiSdkVersion(): string {
  const goMod = fs.readFileSync(path.join(repoRoot, "tools", "pulumi-cli", "go.mod"), "utf8");
  const found = /^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)$/m.exec(goMod);
  if (!found) throw new Error("tools/pulumi-cli/go.mod names no github.com/pulumi/pulumi/pkg/v3");
  return found[1];
}

function listFiles(dir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listFiles(dir, relative));
    else files.push(relative);
  }
  return files.sort();
}
