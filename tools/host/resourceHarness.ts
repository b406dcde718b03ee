/**
 * What the managed-resource tests and the benchmarks share: the package staged under node_modules (so the
 * provider serializes as a `require` of the package), the real `__provider` texts obtained by
 * constructing the resources under `pulumi.runtime.setMocks`, the REAL dynamic-provider host
 * configured for an emulator, and a few direct API calls for out-of-band changes.
 */
import * as pulumi from "@pulumi/pulumi";
import { EmulatorOptions, RunningEmulator } from "../../emulator";
import { startProviderEmulator } from "./providerEmulator";
import { ProviderHost, startHost, urnOf } from "./host";
import { StagedPackage, stagePackage } from "./stage";

export type ResourceType = "Group" | "Identity" | "RoleBinding" | "Role";

export interface MockedResource {
  type: string;
  name: string;
  id?: string;
  inputs: Record<string, any>;
}

export interface Harness {
  emu: RunningEmulator;
  host: ProviderHost;
  staged: StagedPackage;
  /** The `__provider` text the SDK wrote for each resource type, from the staged package. */
  providers: Record<ResourceType, string>;
  /** What the mocked engine received for each constructed resource, by Pulumi name. */
  mocked: Record<string, MockedResource>;
  /** The resources constructed from the staged package, by Pulumi name. */
  instances: Record<string, unknown>;
  /** The staged package's exports, as a program imports them. */
  platform: any;
  urn(type: ResourceType, name: string): string;
  /** Requests the emulator logged since the last clearRequests, as "METHOD path". */
  calls(): string[];
  /** One direct call to the API with the emulator's owner token (an out-of-band change). */
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/** Constructs one of each resource (and one `get`) from the staged package under mocks. */
async function mockedProviders(staged: StagedPackage) {
  const mocked: Record<string, MockedResource> = {};
  void pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        mocked[args.name] = { type: args.type, name: args.name, id: args.id, inputs: args.inputs };
        return { id: args.id ?? `${args.name}-id`, state: args.inputs };
      },
      call: async () => ({}),
    },
    "platform-pulumi",
    "test",
    false,
  );
  const platform = staged.require("platform-pulumi");
  const instances: Record<string, pulumi.CustomResource> = {
    "mock-group": new platform.iam.Group("mock-group", { parentUid: "acme", name: "team", description: "the team" }),
    "mock-identity": new platform.iam.Identity("mock-identity", {
      parentUid: "acme",
      name: "ci",
      claimMatch: { issuer: "https://issuer.example", subject: "repo:acme/app" },
    }),
    "mock-binding": new platform.iam.RoleBinding("mock-binding", {
      groupUid: "acme/team",
      identityUid: "acme/ci",
      roleUid: "viewer",
    }),
    "mock-role": new platform.iam.Role("mock-role", { parentUid: "acme", name: "auditor", capabilities: [] }),
    "mock-group-get": platform.iam.Group.get("mock-group-get", "acme/existing"),
  };
  // Registration is asynchronous: wait until every resource reached the mocked engine.
  await Promise.all(Object.values(instances).map((r) => new Promise((resolve) => r.urn.apply(resolve))));
  const providers: Record<ResourceType, string> = {
    Group: mocked["mock-group"].inputs.__provider,
    Identity: mocked["mock-identity"].inputs.__provider,
    RoleBinding: mocked["mock-binding"].inputs.__provider,
    Role: mocked["mock-role"].inputs.__provider,
  };
  return { providers, mocked, instances, platform };
}

export async function startHarness(emulatorOptions: EmulatorOptions = {}): Promise<Harness> {
  const staged = stagePackage();
  let emu: RunningEmulator | undefined;
  let host: ProviderHost | undefined;
  try {
    const { providers, mocked, instances, platform } = await mockedProviders(staged);
    emu = await startProviderEmulator(emulatorOptions);
    // The host gets no PLATFORM_* variables: everything it knows comes through Configure.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PLATFORM_")));
    host = await startHost({ cwd: staged.dir, env });
    await host.configure({ "platform:apiUrl": emu.url, "platform:token": emu.token });
    const running = { emu, host };
    return {
      ...running,
      staged,
      providers,
      mocked,
      instances,
      platform,
      urn: (type, name) => urnOf(`pulumi-nodejs:dynamic/iam:${type}`, name),
      calls: () => running.emu.requests().map((r) => `${r.method} ${r.path}`),
      async api(method, path, body) {
        const response = await fetch(`${running.emu.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${running.emu.token}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      },
      async close() {
        await running.host.close();
        await running.emu.close();
        staged.remove();
      },
    };
  } catch (error) {
    await host?.close();
    await emu?.close();
    staged.remove();
    throw error;
  }
}
