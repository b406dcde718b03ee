/**
 * What an Output-form look-up waits for before it calls the API: the resources named by its
 * `dependsOn`, as Pulumi's `runtime.invokeOutput` waits for them. There the engine holds the
 * invoke until those resources are done, and answers "unknown" while one is still to be created
 * (a preview); SDKs talking to older engines wait for each custom resource's id and give an
 * unknown result when it is unknown. A look-up runs in the program process, so it does the
 * latter: the result is an Output over the resources' ids, which resolve when their create or
 * update has finished and stay unknown in a preview of a resource yet to be created.
 */
import * as pulumi from "@pulumi/pulumi";

type DependsOn = pulumi.InvokeOutputOptions["dependsOn"];

/**
 * Internals of a component that Pulumi's own walk reads (runtime/dependsOn.ts): its children
 * are known once its construction has finished. Neither is in the SDK's declarations.
 */
interface ComponentInternals {
  __data?: Promise<unknown>;
  __childResources?: Set<pulumi.Resource>;
  __remote?: boolean;
}

function resourcesIn(value: unknown, what: string): pulumi.Resource[] {
  const items = (Array.isArray(value) ? value : [value]).filter((item) => item !== undefined && item !== null);
  for (const item of items)
    if (!pulumi.Resource.isInstance(item))
      throw new Error(`${what}: dependsOn must name resources; it was given ${typeof item}`);
  return items as pulumi.Resource[];
}

/** The resources named and, below each local component (once constructed), its children's. */
async function collect(resources: Iterable<pulumi.Resource>, found: Set<pulumi.Resource>): Promise<void> {
  for (const resource of resources) {
    if (found.has(resource)) continue;
    found.add(resource);
    const internals = resource as unknown as ComponentInternals;
    if (pulumi.ComponentResource.isInstance(resource) && !internals.__remote) {
      await internals.__data;
      await collect(internals.__childResources ?? [], found);
    }
  }
}

/**
 * What to wait for, as Pulumi's walk decides: every custom resource named or below a named
 * component (not below a custom one), and a remote component for all of its own.
 */
async function toWaitFor(resources: pulumi.Resource[]): Promise<pulumi.Output<string>[]> {
  const found = new Set<pulumi.Resource>();
  await collect(resources, found);
  return [...found].flatMap((r) =>
    pulumi.CustomResource.isInstance(r) ? [r.id] : (r as unknown as ComponentInternals).__remote ? [r.urn] : [],
  );
}

/**
 * An Output that is known once every resource of `dependsOn` is done; it carries those
 * resources as its dependencies, so a resource that takes the look-up's result depends on them too.
 * `what` names the look-up in the error for a value that is not a resource.
 */
export function dependenciesDone(dependsOn: DependsOn, what: string): pulumi.Output<unknown> {
  if (dependsOn === undefined) return pulumi.output([]);
  // output() leaves resources whole (it unwraps Outputs and Promises around them only).
  const named = pulumi.output(dependsOn) as pulumi.Output<unknown>;
  return named.apply(async (value) => pulumi.all(await toWaitFor(resourcesIn(value, what))));
}
