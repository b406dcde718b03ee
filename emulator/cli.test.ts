import { spawn, ChildProcess } from "node:child_process";
import * as path from "node:path";

const cli = path.resolve(__dirname, "..", "cli.js");

function startCli(args: string[]): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let buffer = "";
    child.stdout?.on("data", (chunk) => {
      buffer += chunk;
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      lines.push(...parts);
      if (lines.some((l) => l.startsWith("OIDC issuer: "))) resolve({ child, lines });
    });
    child.on("exit", (code) =>
      reject(new Error(`cli exited with ${code} before printing the URL: ${lines.join("\n")}`)),
    );
    child.on("error", reject);
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

describe("platform-pulumi emulator", () => {
  test("--port 0 prints the base URL and dev token, serves the API, and stops on SIGTERM", async () => {
    const { child, lines } = await startCli(["emulator", "--port", "0"]);
    try {
      const url = lines.find((l) => l.startsWith("PLATFORM_API_URL="))?.split("=")[1] as string;
      const token = lines.find((l) => l.startsWith("PLATFORM_TOKEN="))?.split("=")[1] as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const reply = await fetch(`${url}/iam/v2beta1/groups`, { headers: { authorization: `Bearer ${token}` } });
      expect(reply.status).toBe(200);
      const body = (await reply.json()) as { groups: unknown[] };
      expect(body.groups).toHaveLength(1);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  test("--no-seed starts without sample repos", async () => {
    const { child, lines } = await startCli(["emulator", "--port", "0", "--no-seed"]);
    try {
      const url = lines.find((l) => l.startsWith("PLATFORM_API_URL="))?.split("=")[1];
      const token = lines.find((l) => l.startsWith("PLATFORM_TOKEN="))?.split("=")[1];
      const body = (await (
        await fetch(`${url}/registry/v2beta1/repos`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { repos: unknown[] };
      expect(body.repos).toEqual([]);
    } finally {
      await stop(child);
    }
  });

  test("updates follow the spec's rules; --require-patch-fields asks for the documents' required fields in every PATCH body", async () => {
    const patchDescription = async (args: string[]) => {
      const { child, lines } = await startCli(["emulator", "--port", "0", "--no-seed", ...args]);
      try {
        const printed = (key: string) => lines.find((l) => l.startsWith(`${key}=`))?.split("=")[1];
        const root = lines.find((l) => l.startsWith("Root organization: "))?.slice("Root organization: ".length);
        const reply = await fetch(`${printed("PLATFORM_API_URL")}/iam/v2beta1/groups/${root}?updateMask=description`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${printed("PLATFORM_TOKEN")}`, "content-type": "application/json" },
          body: JSON.stringify({ description: "edited in the console" }),
        });
        return [reply.status, ((await reply.json()) as { description?: string; message?: string }).description];
      } finally {
        await stop(child);
      }
    };
    expect(await patchDescription([])).toEqual([200, "edited in the console"]);
    expect(await patchDescription(["--require-patch-fields"])).toEqual([400, undefined]);
  });

  test("--rate-limit N answers 429 with Retry-After past N requests a second; --latency-ms and --rate-limit refuse what is not a count", async () => {
    const { child, lines } = await startCli([
      "emulator",
      "--port",
      "0",
      "--no-seed",
      "--rate-limit",
      "1",
      "--latency-ms",
      "1",
    ]);
    try {
      const printed = (key: string) => lines.find((l) => l.startsWith(`${key}=`))?.split("=")[1];
      const headers = { authorization: `Bearer ${printed("PLATFORM_TOKEN")}` };
      // Three at once against a bucket of one: at least two are refused.
      const replies = await Promise.all(
        [1, 2, 3].map(() => fetch(`${printed("PLATFORM_API_URL")}/iam/v2beta1/groups`, { headers })),
      );
      const refused = replies.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(2);
      expect(refused[0].headers.get("retry-after")).toBe("1");
    } finally {
      await stop(child);
    }
    for (const args of [
      ["--rate-limit", "0"],
      ["--rate-limit", "fast"],
      ["--latency-ms", "1.5"],
    ]) {
      const bad = spawn(process.execPath, [cli, "emulator", "--port", "0", ...args], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      bad.stderr?.on("data", (c) => (stderr += c));
      expect(await new Promise<number | null>((resolve) => bad.on("exit", resolve))).toBe(2);
      expect(stderr).toMatch(new RegExp(`${args[0]} must be`));
    }
  });

  test("a bad flag exits 2 with the usage", async () => {
    const child = spawn(process.execPath, [cli, "emulator", "--port", "abc"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--port must be a non-negative integer/);
    expect(stderr).toMatch(/Usage:/);
  });
});
