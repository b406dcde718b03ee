/**
 * A loopback HTTP proxy in front of an emulator, for tests that need one request treated
 * otherwise than the rest: lost before it reaches the service, lost after the service applied
 * it (the answer never comes back), or sent on with its query changed (a service that filters
 * loosely, or orders otherwise). Everything else passes as it is, status and body.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
}

/** "drop": the connection is cut, nothing forwarded; "dropAfter": forwarded, then cut before the answer. */
export type ProxyAction = "pass" | "drop" | "dropAfter";

export interface LostAnswer {
  method: string;
  path: string;
  status: number;
  /** What the service answered, and the client never saw. */
  body: any;
}

export interface FaultProxy {
  url: string;
  /** The answers cut by "dropAfter", oldest first. */
  lost: LostAnswer[];
  close(): Promise<void>;
}

export async function faultProxy(
  target: string,
  options: {
    /** What to do with a request (default: pass it on). */
    decide?: (req: ProxiedRequest) => ProxyAction;
    /** The query sent on to the service (default: unchanged); called for every request. */
    rewrite?: (req: ProxiedRequest) => URLSearchParams;
  },
): Promise<FaultProxy> {
  const lost: LostAnswer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(String(req.url), "http://proxy");
      const request: ProxiedRequest = { method: String(req.method), path: url.pathname, query: url.searchParams };
      const action = options.decide?.(request) ?? "pass";
      if (action === "drop") {
        req.socket.destroy();
        return;
      }
      const query = (options.rewrite?.(request) ?? url.searchParams).toString();
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "content-type", "accept"])
        if (typeof req.headers[name] === "string") headers[name] = req.headers[name];
      const body = chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
      fetch(`${target}${url.pathname}${query ? `?${query.replace(/\+/g, "%20")}` : ""}`, {
        method: request.method,
        headers,
        body,
      })
        .then(async (answer) => {
          const text = await answer.text();
          if (action === "dropAfter") {
            lost.push({ method: request.method, path: request.path, status: answer.status, body: JSON.parse(text) });
            req.socket.destroy();
            return;
          }
          const type = answer.headers.get("content-type");
          res.writeHead(answer.status, type ? { "content-type": type } : {});
          res.end(text);
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lost,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
