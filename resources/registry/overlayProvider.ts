/**
 * The Overlay provider (v2beta1 only). This module's exports ARE the provider object, so when
 * the package is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/registry/overlayProvider.js")`: a shim that loads
 * the package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { customOverlay } from "./customOverlay";

const overlay: ResourceKind = {
  typeName: "Overlay",
  noun: "overlay",
  domain: "registry",
  collection: "overlays",
  message: "registry.Overlay",
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      config: customOverlay(f),
    }),
  parentField: "parentUid",
  writable: ["name", "config"],
  // The API has no update for overlays: every change is a new overlay.
  replaceOn: ["parentUid", "name", "config"],
  apiVersions: ["v2beta1"],
  // An overlay tells no time: its create looks for one of the same name first (see createdAtField).
  createdAtField: null,
  alreadyExistsHint:
    "choose another name, delete the existing overlay, or refer to it with platform.registry.Overlay.get(name, uid) instead of creating it",
};

export = defineProvider(overlay);
