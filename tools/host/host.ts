import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

/** Plain JSON property bag, as Struct carries it. */
export type Props = Record<string, any>;

export interface CheckResult {
  inputs: Props;
  failures: { property: string; reason: string }[];
}
export interface DiffResult {
  changes: "some" | "none" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}
export interface ReadResult {
  id: string;
  props: Props;
  inputs: Props | undefined;
}

/**
 * The real dynamic-provider host (what the engine launches as pulumi-resource-pulumi-nodejs),
 * started as a child process and driven over gRPC exactly as the engine drives it.
 */
export interface ProviderHost {
  port: number;
  /** The host process's id. */
  pid: number;
  /** Everything the host printed on stderr so far (its error log). */
  stderr(): string;
  configure(config: Record<string, string>): Promise<void>;
  check(urn: string, olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, urn: string, olds: Props, news: Props): Promise<DiffResult>;
  create(urn: string, props: Props): Promise<{ id: string; props: Props }>;
  read(id: string, urn: string, props: Props, inputs?: Props): Promise<ReadResult>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<Props>;
  delete(id: string, urn: string, props: Props): Promise<void>;
  close(): Promise<void>;
}

const hostEntry = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");

/**
 * Starts the host with `cwd` as its working directory: the serialized provider's
 * `require("platform-pulumi/…")` resolves from there, as it does from a program's folder.
 */
export async function startHost(options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<ProviderHost> {
  const child = spawn(process.execPath, [hostEntry, "127.0.0.1:1"], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errText = "";
  child.stderr.on("data", (chunk) => (errText += chunk));
  const port = await readPort(child, () => errText);
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 64 * 1024 * 1024,
  });
  const call = <Req, Res>(method: string, request: Req): Promise<Res> =>
    new Promise((resolve, reject) => {
      (client as any)[method](request, (error: grpc.ServiceError | null, response: Res) =>
        error ? reject(hostError(error)) : resolve(response),
      );
    });
  const struct = (value: Props) => structproto.Struct.fromJavaScript(value);

  return {
    port,
    pid: child.pid!,
    stderr: () => errText,
    async configure(config) {
      const request = new provproto.ConfigureRequest();
      request.setArgs(struct(config));
      const variables = request.getVariablesMap();
      for (const [key, value] of Object.entries(config)) variables.set(key, value);
      await call("configure", request);
    },
    async check(urn, olds, news) {
      const request = new provproto.CheckRequest();
      request.setUrn(urn);
      request.setOlds(struct(olds));
      request.setNews(struct(news));
      const response = await call<provproto.CheckRequest, provproto.CheckResponse>("check", request);
      return {
        inputs: response.getInputs()?.toJavaScript() ?? {},
        failures: response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(id, urn, olds, news) {
      const request = new provproto.DiffRequest();
      request.setId(id);
      request.setUrn(urn);
      request.setOlds(struct(olds));
      request.setNews(struct(news));
      const response = await call<provproto.DiffRequest, provproto.DiffResponse>("diff", request);
      const kinds = provproto.DiffResponse.DiffChanges;
      const changes = response.getChanges();
      return {
        changes: changes === kinds.DIFF_SOME ? "some" : changes === kinds.DIFF_NONE ? "none" : "unknown",
        replaces: response.getReplacesList(),
        deleteBeforeReplace: response.getDeletebeforereplace(),
      };
    },
    async create(urn, props) {
      const request = new provproto.CreateRequest();
      request.setUrn(urn);
      request.setProperties(struct(props));
      const response = await call<provproto.CreateRequest, provproto.CreateResponse>("create", request);
      return { id: response.getId(), props: response.getProperties()?.toJavaScript() ?? {} };
    },
    async read(id, urn, props, inputs) {
      const request = new provproto.ReadRequest();
      request.setId(id);
      request.setUrn(urn);
      request.setProperties(struct(props));
      if (inputs) request.setInputs(struct(inputs));
      const response = await call<provproto.ReadRequest, provproto.ReadResponse>("read", request);
      return {
        id: response.getId(),
        props: response.getProperties()?.toJavaScript() ?? {},
        inputs: response.getInputs()?.toJavaScript(),
      };
    },
    async update(id, urn, olds, news) {
      const request = new provproto.UpdateRequest();
      request.setId(id);
      request.setUrn(urn);
      request.setOlds(struct(olds));
      request.setNews(struct(news));
      const response = await call<provproto.UpdateRequest, provproto.UpdateResponse>("update", request);
      return response.getProperties()?.toJavaScript() ?? {};
    },
    async delete(id, urn, props) {
      const request = new provproto.DeleteRequest();
      request.setId(id);
      request.setUrn(urn);
      request.setProperties(struct(props));
      await call("delete", request);
    },
    async close() {
      client.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

/** The host answers failures as gRPC errors whose details carry the provider's message. */
export class HostError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(details);
    this.name = "HostError";
  }
}

function hostError(error: grpc.ServiceError): HostError {
  return new HostError(error.code, error.details || error.message);
}

function readPort(child: ChildProcess, errors: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n")[0];
      if (out.includes("\n")) {
        child.stdout!.off("data", onData);
        const port = Number(line.trim());
        if (Number.isInteger(port) && port > 0) resolve(port);
        else reject(new Error(`dynamic-provider host printed no port: ${JSON.stringify(line)}`));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`dynamic-provider host exited (${code}) before listening: ${errors()}`)),
    );
  });
}

/** A urn in the engine's form, for requests that carry one. */
export function urnOf(type: string, name: string, stack = "test", project = "platform-pulumi"): string {
  return `urn:pulumi:${stack}::${project}::${type}::${name}`;
}

export const hostEntryPath = path.resolve(hostEntry);
