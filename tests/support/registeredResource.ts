/**
 * One more resource constructed under the harness's mocks from the staged package, for the
 * kinds the harness does not construct itself: what the SDK registered (its `__provider`
 * text above all) and the URN the host calls it under.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as settings from "@pulumi/pulumi/runtime/settings";
import { urnOf } from "../../tools/host/host";
import type { Harness, MockedResource } from "../../tools/host/resourceHarness";

export interface Registered {
  instance: pulumi.CustomResource;
  mocked: MockedResource;
  /** The `__provider` text the SDK wrote. */
  provider: string;
  urn: string;
}

export async function registerResource(
  h: Harness,
  name: string,
  construct: (platform: any) => pulumi.CustomResource,
): Promise<Registered> {
  const instance = construct(h.platform);
  // Registration is asynchronous: wait until the resource reached the mocked engine.
  await new Promise((resolve) => instance.urn.apply(resolve));
  const mocked = h.mocked[name];
  if (!mocked) throw new Error(`${name} never reached the mocked engine`);
  return { instance, mocked, provider: mocked.inputs.__provider, urn: urnOf(mocked.type, name) };
}

/** The error a host call failed with (fails the test when it succeeds). */
export async function failureOf(call: Promise<unknown>): Promise<Error> {
  return call.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: Error) => error,
  );
}

interface RegisterRequest {
  getName(): string;
  getAdditionalsecretoutputsList(): string[];
}

/**
 * The additionalSecretOutputs each later registration (new resource or `get`) asks the engine
 * for, by resource name: read from what the SDK sends the current (mock) monitor, since the
 * mocks' newResource does not see options.
 */
export function recordSecretOutputs(): Record<string, string[]> {
  const asked: Record<string, string[]> = {};
  type Send = (req: RegisterRequest, cb: unknown) => void;
  const monitor = settings.getMonitor() as unknown as { registerResource: Send; readResource: Send };
  for (const operation of ["registerResource", "readResource"] as const) {
    const send = monitor[operation].bind(monitor);
    monitor[operation] = (req, cb) => {
      asked[req.getName()] = req.getAdditionalsecretoutputsList();
      send(req, cb);
    };
  }
  return asked;
}
