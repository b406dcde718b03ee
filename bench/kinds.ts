/**
 * The managed kinds the package ships, as the staged package's kind list lists them
 * (resources/kinds.ts), each with its description and the `__provider` text a program writes
 * for it (serialized through the SDK under the harness's mocks, as floors.ts does). A kind added
 * to the kind list is measured the day it lands.
 */
import type * as Pulumi from "@pulumi/pulumi";
import type * as KindList from "../resources/kinds";
import type { ResourceKind } from "../core/model/kind";
import type { Harness } from "../tools/host/resourceHarness";
import { urnOf } from "../tools/host/host";

export interface ManagedKind {
  typeName: string;
  domain: string;
  /** Its description, as the staged package's provider carries it. */
  description: ResourceKind;
  /** The provider module as a program's `require` names it. */
  module: string;
  /** The `__provider` text every resource of this kind stores. */
  providerText: string;
  /** The API updates some of its fields in place (a kind whose every writable field replaces does not). */
  updatable: boolean;
  /** Inputs that are documents of their own (a repo's readme): one more request each where set. */
  companionInputs: string[];
  /**
   * Its records tell no creation time, so its create lists the records holding the key first
   * (one request more: a lost answer is settled against that list).
   */
  listsBeforeCreate: boolean;
  /** Its record's uid is its parent's (one per parent, an account association): found by that uid, no search. */
  keyedByParent: boolean;
  urn(name: string): string;
}

/** The provider modules of the staged package's kind list, as a program's `require` names them. */
export function providerModules(h: Pick<Harness, "staged">): string[] {
  const kindList = h.staged.require<typeof KindList>("platform-pulumi/dist/resources/kinds");
  return kindList.KINDS.map((kind) => `platform-pulumi/dist/${kindList.modulePathOf(kind)}.js`);
}

/** What the benchmarks need of a kind's description. */
function described(module: string, kind: ResourceKind | undefined) {
  if (!kind) throw new Error(`${module} exports no kind description`);
  return {
    typeName: kind.typeName,
    domain: kind.domain,
    updatable: kind.writable.some((field) => !kind.replaceOn.includes(field)),
    companionInputs: (kind.companions ?? []).map((c) => c.input),
    listsBeforeCreate: kind.createdAtField === null,
    keyedByParent: kind.keyedByParent === true,
  };
}

export async function managedKinds(h: Harness): Promise<ManagedKind[]> {
  const pulumi = h.staged.require<typeof Pulumi>("@pulumi/pulumi");
  // dynamic.Resource is abstract in the SDK's types only.
  class Probe extends pulumi.dynamic.Resource {}
  const kinds: ManagedKind[] = [];
  for (const module of providerModules(h)) {
    const provider = h.staged.require<Pulumi.dynamic.ResourceProvider & { kind?: ResourceKind }>(module);
    const { typeName, domain, updatable, companionInputs, listsBeforeCreate, keyedByParent } = described(
      module,
      provider.kind,
    );
    const name = `bench-kind-${domain}-${typeName}`;
    const probe = new Probe(provider, name, {}, {}, "bench", typeName);
    await new Promise((resolve) => probe.urn.apply(resolve));
    const providerText = h.mocked[name]?.inputs.__provider;
    if (typeof providerText !== "string") throw new Error(`the mocked engine received no __provider for ${module}`);
    if (!providerText.includes(`require("${module}")`))
      throw new Error(`${module} did not serialize as a bare require: ${providerText.slice(0, 200)}`);
    kinds.push({
      description: provider.kind!,
      typeName,
      domain,
      module,
      providerText,
      updatable,
      companionInputs,
      listsBeforeCreate,
      keyedByParent,
      urn: (resource) => urnOf(`pulumi-nodejs:dynamic/${domain}:${typeName}`, resource),
    });
  }
  return kinds;
}
