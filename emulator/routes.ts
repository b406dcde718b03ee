/**
 * The route table, built from the documents: every GA operation under `/<domain>/v2/` and
 * `/<domain>/v2beta1/`, the v2beta1-only ones under v2beta1 only. A path parameter is a whole
 * uid, slashes included (the documents' pattern is `.+`); custom verbs (`:lookupGroup`) and
 * nested paths (`/readme`, `/digests/{digest}/size`) are literal text, so a route with more
 * literal text is tried first.
 */
import { ApiDocument, DocOperation } from "./apiDocument";
import { invalidArgument } from "./errors";

export interface Route {
  op: DocOperation;
  method: string;
  /** The path as served, e.g. `/iam/v2beta1/groups/{uid}`. */
  template: string;
  domain: string;
  version: "v2" | "v2beta1";
  regex: RegExp;
  paramNames: string[];
  literalLength: number;
}

export interface RouteMatch {
  route: Route;
  /** Decoded path parameters by their documented names. */
  pathParams: Record<string, string>;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(op: DocOperation, template: string, version: Route["version"]): Route {
  const paramNames: string[] = [];
  let source = "";
  let literalLength = 0;
  for (const part of template.split(/(\{[^}]+\})/)) {
    const param = /^\{([^}]+)\}$/.exec(part);
    if (param) {
      paramNames.push(param[1]);
      source += "(.+)";
    } else {
      source += escapeRegex(part);
      literalLength += part.length;
    }
  }
  return {
    op,
    method: op.method.toUpperCase(),
    template,
    domain: template.split("/")[1],
    version,
    regex: new RegExp(`^${source}$`),
    paramNames,
    literalLength,
  };
}

export class Router {
  readonly routes: Route[] = [];

  constructor(doc: ApiDocument) {
    for (const op of doc.operations) {
      this.routes.push(compile(op, op.path, "v2"));
      this.routes.push(compile(op, op.path.replace(/^(\/[^/]+)\/v2\//, "$1/v2beta1/"), "v2beta1"));
    }
    for (const op of doc.v2beta1Only) this.routes.push(compile(op, op.path, "v2beta1"));
    this.routes.sort((a, b) => b.literalLength - a.literalLength);
  }

  /** The route for a request; `methodMismatch` when the path is served but not with this method. */
  match(method: string, rawPath: string): RouteMatch | { methodMismatch: string[] } | null {
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, "") : rawPath;
    const methods: string[] = [];
    for (const route of this.routes) {
      const found = route.regex.exec(path);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      let usable = true;
      route.paramNames.forEach((name, i) => {
        const value = decodeParam(name, found[i + 1]);
        if (value === "" || value.startsWith("/")) usable = false;
        pathParams[name] = value;
      });
      if (!usable) continue;
      if (route.method !== method) {
        methods.push(route.method);
        continue;
      }
      return { route, pathParams };
    }
    return methods.length ? { methodMismatch: [...new Set(methods)] } : null;
  }
}

function decodeParam(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw invalidArgument([{ field: name, description: "is not a valid percent-encoded path" }]);
  }
}

const routers = new WeakMap<ApiDocument, Router>();

export function routerOf(doc: ApiDocument): Router {
  let router = routers.get(doc);
  if (!router) routers.set(doc, (router = new Router(doc)));
  return router;
}
