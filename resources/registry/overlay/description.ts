/**
 * An image overlay of a group: everything the package knows about the kind, and the only
 * place it is written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { customOverlay } from "../customOverlay";

const overlay: ResourceKind = {
  typeName: "Overlay",
  noun: "overlay",
  domain: "registry",
  collection: "overlays",
  message: "registry.Overlay",
  docs: {
    summary:
      "An image overlay of a group (v2beta1 only): configuration layered onto images, applied to a\n" +
      "repo's tags by an OverlayBinding. Managed by Pulumi; its id is the overlay's uid. The API\n" +
      "cannot change an overlay in place: any change replaces it.\n\n" +
      "Look-ups: `getOverlay({ uid })` or by name, `getOverlays({ childrenOf })`.",
    example: {
      name: "tz",
      inputs: { parentUid: { $uidOf: "Group" }, name: "tz", config: { environment: { TZ: "UTC" } } },
    },
    fields: {
      uid: "The overlay's uid. Same as `id`.",
      parentUid: "The group the overlay lives in.",
      config: "What the overlay adds to images (the documented registry.CustomOverlay).",
    },
    replacedWhen: "any input changes",
  },
  inputs: (f) =>
    f.z.strictObject({
      parentUid: f.uid("a group"),
      name: f.name(),
      config: customOverlay(f),
    }),
  parentField: "parentUid",
  parentCollection: "groups",
  writable: ["name", "config"],
  // The API has no update for overlays: every change is a new overlay.
  replaceOn: ["parentUid", "name", "config"],
  apiVersions: ["v2beta1"],
  // An overlay tells no time: its create looks for one of the same name first (see createdAtField).
  createdAtField: null,
  alreadyExistsHint:
    "choose another name, delete the existing overlay, or refer to it with platform.registry.Overlay.get(name, uid) instead of creating it",
};

export default overlay;
