/**
 * From a matched route to its operation: the collections' List, Get, Create, Update and
 * Delete go to the generic operations (handlers.ts), every other operation to its own
 * handler by its documented name (operations/). Query parameters are checked against their
 * documented types and enums, and bodies of custom operations against their message.
 */
import { Context } from "./context";
import { invalidArgument, invalidField, unimplemented } from "./errors";
import { createResource, deleteResource, getResource, listResources, updateResource } from "./handlers";
import { resourceFor } from "./kinds/registry";
import { OPERATIONS } from "./operations";
import { Params, getBool, getInt, getList, getTime, toSnake } from "./params";
import { Route } from "./routes";
import { requireObject } from "./validation";

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface OperationRequest {
  pathParams: Record<string, string>;
  params: Params;
  /** The parsed body (an object) of operations that take one. */
  body: Record<string, unknown>;
  route: Route;
}

export type OperationHandler = (ctx: Context, request: OperationRequest) => unknown;

const COLLECTION_PATH = /^\/([^/]+)\/v2(?:beta1)?\/([A-Za-z]+)(\/\{uid\})?$/;

/**
 * Advisory event filters also take the short event names the sample advisories carry
 * (`fixed`, `detection`, …), so their documented enums are not enforced here.
 */
const LENIENT_ENUMS = new Set(["eventTypes", "latestEventType"]);

function checkQuery(route: Route, params: Params): void {
  for (const param of route.op.parameters ?? []) {
    if (param.in !== "query") continue;
    const name = toSnake(param.name);
    const values = params.get(name);
    if (!values?.length) {
      if (param.required) throw invalidField(param.name, "is required");
      continue;
    }
    if (param.type === "integer") getInt(params, name);
    else if (param.type === "boolean") getBool(params, name);
    else if (param.format === "date-time") getTime(params, name);
    const allowed = LENIENT_ENUMS.has(param.name) ? undefined : (param.enum ?? param.items?.enum);
    if (allowed) {
      const given = param.type === "array" ? (getList(params, name) ?? []) : [values[values.length - 1]];
      const wrong = given.find((v) => !allowed.includes(v));
      if (wrong !== undefined)
        throw invalidField(param.name, `"${wrong}" is not one of the documented values: ${allowed.join(", ")}`);
    }
  }
}

export function dispatch(
  ctx: Context,
  route: Route,
  pathParams: Record<string, string>,
  params: Params,
  rawBody: unknown,
): Answer {
  checkQuery(route, params);
  const collection = COLLECTION_PATH.exec(route.op.path);
  const def = collection ? resourceFor(ctx.kinds, collection[1], collection[2]) : undefined;
  if (collection && def) {
    const uid = pathParams.uid;
    switch (route.method) {
      case "GET":
        return { status: 200, body: uid === undefined ? listResources(ctx, def, params) : getResource(ctx, def, uid) };
      case "POST":
        return { status: 200, body: createResource(ctx, def, uid, rawBody) };
      case "PATCH":
        return { status: 200, body: updateResource(ctx, def, uid, params, rawBody) };
      case "DELETE":
        deleteResource(ctx, def, uid);
        // The empty message, as the service's JSON gateway writes it.
        return { status: 200, body: {} };
    }
  }
  const handler = Object.prototype.hasOwnProperty.call(OPERATIONS, route.op.operation)
    ? OPERATIONS[route.op.operation]
    : undefined;
  if (!handler) throw unimplemented(`${route.op.operation} is documented but not served by the emulator`);
  let body: Record<string, unknown> = {};
  if (route.op.body) {
    body = requireObject(rawBody);
    const violations = ctx.messages.violations(route.op.body, body);
    if (violations.length) throw invalidArgument(violations);
  }
  return { status: 200, body: handler(ctx, { pathParams, params, body, route }) };
}
