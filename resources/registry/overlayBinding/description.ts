/**
 * An overlay applied to tags of a repo: everything the package knows about the kind, and the
 * only place it is written. Its provider, class, look-ups and docs pages come from here.
 */
import type { ResourceKind } from "../../../core/model/kind";
import { isObject, parentOfUid, shown } from "../../../core/common/values";

const overlayBinding: ResourceKind = {
  typeName: "OverlayBinding",
  noun: "overlay binding",
  domain: "registry",
  collection: "overlayBindings",
  message: "registry.OverlayBinding",
  docs: {
    summary:
      "An overlay applied to tags of a repo (v2beta1 only), managed by Pulumi; its id is the\n" +
      "binding's uid. The API cannot change a binding in place: any change replaces it.\n\n" +
      "Look-ups: `getOverlayBinding({ uid })`, `getOverlayBindings({ repoUid, overlayUid })`.",
    example: {
      name: "app-tz",
      inputs: { repoUid: { $uidOf: "Repo" }, overlayUid: { $uidOf: "Overlay" }, tags: ["latest"] },
    },
    fields: {
      uid: "The binding's uid. Same as `id`.",
      repoUid: "The repo whose tags get the overlay.",
      overlayUid: "The overlay to apply (`overlay` on the wire).",
      tags: "The tags the overlay applies to: at least one.",
      repo: "The repo's uid, as the API answers it.",
      overlay: "The bound overlay, as the API hydrates it.",
    },
    replacedWhen: "any input changes",
  },
  // The wire name `overlay` is the input overlayUid in a body, and the whole overlay in an answer:
  // the answered one is an output of its own.
  extraOutputs: { overlay: { ref: "registry.Overlay" } },
  inputs: (f) =>
    f.z.strictObject({
      repoUid: f.uid("a repo"),
      overlayUid: f.uid("an overlay"),
      tags: f.list(f.text()).min(1, "must name at least one tag"),
    }),
  parentField: "repoUid",
  parentCollection: "repos",
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

export default overlayBinding;
