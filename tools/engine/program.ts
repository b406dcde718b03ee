import { loadProgram } from "../pulumi-cli/programModule";
import { Props, secretOutputs, withSecrets } from "./wire";

/** One RegisterResource (or ReadResource, for `Resource.get`) call from the program. */
export interface Registration {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent: string;
  /** Inputs in wire form: unknowns are the sentinel string, secrets stay wrapped. */
  inputs: Props;
  /** Every URN the inputs or `dependsOn` refer to (the parent is added by the engine). */
  dependencies: string[];
  deleteBeforeReplace: boolean;
  ignoreChanges: string[];
  protect: boolean;
  retainOnDelete: boolean;
  /** Set for `Resource.get(name, id)`: read, never created. */
  readId?: string;
  /** Outputs the resource asks to keep secret (`additionalSecretOutputs`), top-level names. */
  additionalSecretOutputs: string[];
}

export interface RegistrationResult {
  /** Empty while unknown (a create during preview). */
  id: string;
  /** In wire form; in preview an absent property reads as unknown in the program. */
  outputs: Props;
}

export interface ProgramHooks {
  register(registration: Registration): Promise<RegistrationResult>;
}

export interface ProgramOptions {
  /** The staged program folder: @pulumi/pulumi is resolved from here, as the program resolves it. */
  dir: string;
  entry: string;
  esm: boolean;
  project: string;
  stack: string;
  preview: boolean;
  hooks: ProgramHooks;
}

export interface ProgramResult {
  /** Stack outputs in wire form, as the root Stack resource registered them. */
  outputs: Props;
  /** The program's own failure (a thrown error, a failed look-up), if any. */
  error?: Error;
}

/**
 * Runs a Pulumi program in this process with the SDK's own runtime, as the Node.js language host
 * does (a root `pulumi:pulumi:Stack` resource, the module's exports or default function as its
 * outputs), except that the resource monitor is ours: every registration goes to `hooks`.
 * PULUMI_CONFIG must be set before this is called: the SDK reads it when it first loads.
 */
export async function runProgram(options: ProgramOptions): Promise<ProgramResult> {
  const load = (id: string) => require(require.resolve(id, { paths: [options.dir] }));
  const pulumi = load("@pulumi/pulumi");
  const { MockMonitor } = load("@pulumi/pulumi/runtime/mocks");
  const settings = load("@pulumi/pulumi/runtime/settings");
  const stack = load("@pulumi/pulumi/runtime/stack");
  const resproto = load("@pulumi/pulumi/proto/resource_pb");
  const structproto = load("google-protobuf/google/protobuf/struct_pb");

  let stackOutputs: Props = {};
  const unsupported = {
    newResource: () => Promise.reject(new Error("internal: the engine's monitor handles registrations")),
    call: (args: { token: string }) =>
      Promise.reject(new Error(`provider functions (${args.token}) are not supported by the local engine`)),
  };

  class EngineMonitor extends MockMonitor {
    constructor(mocks: unknown) {
      super(mocks);
    }

    /** Hands one registration (a new resource, or a read of an existing one) to the engine and remembers the answer. */
    private async registerWith(
      req: any,
      registration: Omit<Registration, "urn" | "type" | "name" | "parent" | "dependencies">,
    ) {
      const urn = this.newUrn(req.getParent(), req.getType(), req.getName());
      const result = await options.hooks.register({
        urn,
        type: req.getType(),
        name: req.getName(),
        parent: req.getParent(),
        dependencies: req.getDependenciesList(),
        ...registration,
      });
      // As the engine does for a provider that accepts no secrets: an output is secret when its
      // input was, or when the resource names it in additionalSecretOutputs.
      const outputs = withSecrets(result.outputs, secretOutputs(registration));
      this.resources.set(urn, { urn, id: result.id || null, state: outputs });
      return { urn, result: { ...result, outputs } };
    }

    async registerResource(req: any, callback: (err: unknown, res?: unknown) => void) {
      try {
        const { urn, result } = await this.registerWith(req, {
          custom: req.getCustom(),
          inputs: req.getObject()?.toJavaScript() ?? {},
          deleteBeforeReplace: req.getDeletebeforereplace(),
          ignoreChanges: req.getIgnorechangesList(),
          protect: req.getProtect() === true,
          retainOnDelete: req.getRetainondelete() === true,
          additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        });
        const response = new resproto.RegisterResourceResponse();
        response.setUrn(urn);
        response.setId(result.id);
        response.setObject(structproto.Struct.fromJavaScript(result.outputs));
        callback(null, response);
      } catch (error) {
        callback(error);
      }
    }

    async readResource(req: any, callback: (err: unknown, res?: unknown) => void) {
      try {
        const { urn, result } = await this.registerWith(req, {
          custom: true,
          inputs: req.getProperties()?.toJavaScript() ?? {},
          deleteBeforeReplace: false,
          ignoreChanges: [],
          protect: false,
          retainOnDelete: false,
          readId: req.getId(),
          additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        });
        const response = new resproto.ReadResourceResponse();
        response.setUrn(urn);
        response.setProperties(structproto.Struct.fromJavaScript(result.outputs));
        callback(null, response);
      } catch (error) {
        callback(error);
      }
    }

    registerResourceOutputs(req: any, callback: (err: unknown, res?: unknown) => void) {
      const urn: string = req.getUrn();
      const outputs = req.getOutputs()?.toJavaScript() ?? {};
      if (urn.split("::")[2] === stack.rootPulumiStackTypeName) stackOutputs = outputs;
      const known = this.resources.get(urn);
      if (known) known.state = outputs;
      callback(null, {});
    }
  }

  await pulumi.runtime.setMocks(unsupported, options.project, options.stack, options.preview);
  settings.setMockOptions(new EngineMonitor(unsupported), options.project, options.stack, options.preview);

  let error: Error | undefined;
  try {
    await stack.runInPulumiStack(async () => {
      let exported = await loadProgram(options.entry, options.esm);
      if (typeof exported === "function") exported = await exported();
      return exported;
    });
  } catch (thrown) {
    error = thrown instanceof Error ? thrown : new Error(String(thrown));
  }
  // Registrations still in flight (resources whose inputs resolved late) finish before the run ends.
  await settings.waitForRPCs();
  return { outputs: stackOutputs, error };
}
