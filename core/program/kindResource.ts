/**
 * The base of every generated resource class (tools/generate writes one per kind from its
 * description): what a class does beyond declaring its properties, written once. The class
 * passes its shape, a constant the generator derives from the description and the API document.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiResource } from "./apiResource";
import { hostSafeInputs, restoreMapOutputs } from "./programMaps";
import { withSecretOutputs } from "./secretOutputs";

export interface ResourceShape {
  /** The namespace of the type token: "iam". */
  readonly module: string;
  /** The class name in the type token: "Group". */
  readonly type: string;
  /** Every output, inputs included, in the order the class declares them. */
  readonly outputs: readonly string[];
  /**
   * Top-level properties holding a secret (an invite's code, the identity provider's `oidc`
   * holding its client secret): the engine marks secrets on top-level properties only, and the
   * dynamic-provider host takes none, so the engine keeps these encrypted and masked.
   */
  readonly secrets: readonly string[];
  /** Inputs and outputs holding maps somewhere inside, whose keys the SDK may drop (core/program/programMaps.ts). */
  readonly maps: readonly string[];
}

/** The options CustomResourceOptions has: tell `get`'s deprecated (name, id, opts) from (name, id, state). */
const OPTION_KEYS = new Set([
  "id",
  "import",
  "parent",
  "provider",
  "providers",
  "protect",
  "dependsOn",
  "ignoreChanges",
  "retainOnDelete",
  "deletedWith",
  "aliases",
  "customTimeouts",
  "transformations",
  "transforms",
  "hooks",
  "version",
  "pluginDownloadURL",
  "urn",
  "deleteBeforeReplace",
  "additionalSecretOutputs",
  "replaceOnChanges",
  "replaceWith",
  "hideDiffs",
  "envVarMappings",
]);

/**
 * The arguments of `Kind.get(name, id, state?, opts?)`, or of the deprecated `get(name, uid, opts)`
 * (CHANGELOG, deprecations): a third argument with only resource options and no output of the kind
 * is taken as the options.
 */
export function getArguments<State extends object>(
  shape: ResourceShape,
  stateOrOptions: State | pulumi.CustomResourceOptions | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
): { state: State | undefined; opts: pulumi.CustomResourceOptions | undefined } {
  if (opts !== undefined || stateOrOptions === undefined || stateOrOptions === null) {
    return { state: stateOrOptions as State | undefined, opts };
  }
  const keys = Object.keys(stateOrOptions);
  const earlierForm =
    keys.length > 0 && keys.every((key) => OPTION_KEYS.has(key)) && !keys.some((key) => shape.outputs.includes(key));
  return earlierForm ? { state: undefined, opts: stateOrOptions } : { state: stateOrOptions as State, opts };
}

export abstract class KindResource extends ApiResource {
  protected constructor(
    provider: pulumi.dynamic.ResourceProvider,
    name: string,
    args: object | undefined,
    opts: pulumi.CustomResourceOptions | undefined,
    shape: ResourceShape,
  ) {
    const declared = Object.fromEntries(shape.outputs.map((output) => [output, undefined]));
    const given = hostSafeInputs(args as Record<string, unknown> | undefined, shape.maps);
    // The dynamic-provider host takes no secrets: the engine hands it plain values and keeps the
    // secret marking of these inputs, and of the same outputs, in the state.
    const inputs: Record<string, unknown> = { ...given };
    for (const secret of shape.secrets)
      if (inputs[secret] !== undefined) inputs[secret] = pulumi.secret(inputs[secret] as pulumi.Input<unknown>);
    const options = shape.secrets.length > 0 ? withSecretOutputs(opts, shape.secrets) : opts;
    super(provider, name, { ...declared, ...inputs }, options, shape.module, shape.type);
    restoreMapOutputs(this, shape.maps);
  }
}
