/**
 * Figure 2: bytes of `__provider` per resource, as a program constructed from the installed
 * package writes it (through `new dynamic.Resource` under `setMocks`), beside the floor: the
 * smallest provider object there is (`{ async create() { return { id: "x" }; } }` as a module's
 * exports under node_modules), serialized the same way. The state holds the text twice per
 * resource (inputs and outputs), and every host call carries it.
 */
import type { World } from "./world";

export interface ProviderSizeResult {
  floorBytes: number;
  resources: Record<string, { bytes: number; overFloor: number; requires: string[] }>;
  floorText: string;
}

export function measureProviderSize(world: World): ProviderSizeResult {
  const floorText = world.floors["bench-floor-min"];
  const floorBytes = Buffer.byteLength(floorText);
  const resources: ProviderSizeResult["resources"] = {};
  for (const [type, text] of Object.entries(world.h.providers)) {
    const bytes = Buffer.byteLength(text);
    resources[type] = {
      bytes,
      overFloor: bytes - floorBytes,
      requires: [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]),
    };
  }
  return { floorBytes, resources, floorText };
}
