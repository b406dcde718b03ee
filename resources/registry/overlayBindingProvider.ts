/**
 * The OverlayBinding provider (v2beta1 only). This module's exports ARE the provider object,
 * so when the package is installed the closure serializer stores `__provider` as a bare
 * `require("platform-pulumi/dist/resources/registry/overlayBindingProvider.js")`: a shim that
 * loads the package's current code at call time, and captures no config, token or machine path.
 *
 * KEEP THIS FILE'S PATH AND NAME STABLE FOREVER: every stack's state names it.
 */
import type { ResourceKind } from "../../provider/kind";
import { defineProvider } from "../../provider/lifecycle";
import { isObject, parentOfUid, shown } from "../../provider/values";

const overlayBinding: ResourceKind = {
  typeName: "OverlayBinding",
  noun: "overlay binding",
  domain: "registry",
  collection: "overlayBindings",
  message: "registry.OverlayBinding",
  inputs: (f) =>
    f.z.strictObject({
      repoUid: f.uid("a repo"),
      overlayUid: f.uid("an overlay"),
      tags: f.list(f.text()).min(1, "must name at least one tag"),
    }),
  parentField: "repoUid",
  writable: ["overlayUid", "tags"],
  // The create body names the overlay `overlay`; the answer hydrates it into the whole overlay.
  wireNames: { overlayUid: "overlay" },
  // The API has no update for overlay bindings: every change is a new binding.
  replaceOn: ["repoUid", "overlayUid", "tags"],
  apiVersions: ["v2beta1"],
  toOutputs: (record) => ({
    ...record,
    repoUid: typeof record.repo === "string" ? record.repo : parentOfUid(record.uid),
    overlayUid: isObject(record.overlay) ? record.overlay.uid : undefined,
  }),
  label: (props) => {
    const parts = [
      props.overlayUid ? `of overlay "${shown(props.overlayUid)}"` : "",
      props.repoUid ? `to repo "${shown(props.repoUid)}"` : "",
    ].filter(Boolean);
    return `overlay binding${props.uid ? ` ${shown(props.uid)}` : ""}${parts.length ? ` (${parts.join(" ")})` : ""}`;
  },
  naturalKey: (inputs) => ({ "uidp.children_of": shown(inputs.repoUid), overlay: shown(inputs.overlayUid) }),
  keyFields: ["overlayUid"],
  duplicatesAllowed: true,
  // A binding tells no time: its create lists the repo's bindings of the overlay first (see createdAtField).
  createdAtField: null,
  alreadyExistsHint:
    "the repo already binds this overlay; remove this OverlayBinding from the program, delete the other binding, " +
    "or refer to it with platform.registry.OverlayBinding.get(name, uid)",
};

export = defineProvider(overlayBinding);
