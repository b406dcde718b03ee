/**
 * A loopback proxy in front of the emulator for the stories about reads answered together
 * (core/runtime/readBatches.ts): it holds the requests a test chooses until the test lets them go
 * (so that reads overlap because the test says so, not by timing), tells the test when a request
 * it waits for has come, and may answer a request itself or change what the emulator answered
 * (a List cut into pages, a record left out of a List, a List refused; an answer that throws cuts
 * the connection). Every request it saw is listed, in order, with its query.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the proxy saw it. */
export interface SeenRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  query: URLSearchParams;
}

/** What the emulator answered (or the proxy answers instead): a status and a JSON body. */
export interface ProxyAnswer {
  status: number;
  body: unknown;
  /** Headers besides the content's (a 429's Retry-After). */
  headers?: Record<string, string>;
}

/** What the proxy does; read at each request, so a test may change it between its steps. */
export interface ReadsProxyOptions {
  /** The emulator's base URL. */
  upstream: string;
  /** Requests that wait, unsent to the emulator, until release(). */
  hold?: (req: SeenRequest) => boolean;
  /** The request sent on instead (its query changed, say); by default as it came. */
  forward?: (req: SeenRequest) => SeenRequest;
  /**
   * What the client gets: the emulator's answer, changed or replaced. Called with no answer
   * (undefined) before forwarding: an answer then means the emulator is never asked.
   */
  answer?: (req: SeenRequest, upstream?: ProxyAnswer) => ProxyAnswer | undefined | Promise<ProxyAnswer | undefined>;
}

export interface ReadsProxy {
  url: string;
  /** Every request seen, in the order it came. */
  readonly seen: SeenRequest[];
  /** Resolves once `count` requests matching `match` have come (held ones included). */
  waitFor(match: (req: SeenRequest) => boolean, count?: number): Promise<void>;
  /** Sends the held requests on, and every request from now on. */
  release(): void;
  /** Forgets what was seen, and holds again what `hold` says (for the next step of a test). */
  reset(): void;
  close(): Promise<void>;
}

/** A List's query as a test reads it: "LIST groups org/a,org/b" or "GET groups/org/a". */
export function said(req: SeenRequest): string {
  const [, , , collection, ...uid] = req.path.split("/");
  if (uid.length > 0) return `${req.method} ${collection}/${decodeURIComponent(uid.join("/"))}`;
  return `LIST ${collection} ${req.query.getAll("uidp.ids").join(",")}`;
}

/** A `hold` that holds the first GET of each of these collections, and nothing else. */
export function firstGetOf(...collections: string[]): (req: SeenRequest) => boolean {
  const held = new Set<string>();
  return (req) => {
    const [verb, rest] = said(req).split(" ");
    const collection = rest.split("/")[0];
    if (verb !== "GET" || !collections.includes(collection) || held.has(collection)) return false;
    held.add(collection);
    return true;
  };
}

export async function readsProxy(options: ReadsProxyOptions): Promise<ReadsProxy> {
  const upstream = new URL(options.upstream);
  const seen: SeenRequest[] = [];
  const waiters: Array<{ match: (req: SeenRequest) => boolean; count: number; resolve: () => void }> = [];
  let held: Array<() => void> = [];
  let released = false;

  const notify = () => {
    for (const w of [...waiters])
      if (seen.filter(w.match).length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };

  const server = http.createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(String(incoming.url), "http://proxy");
      const req: SeenRequest = { method: String(incoming.method), path: url.pathname, query: url.searchParams };
      seen.push(req);
      notify();
      const go = () => void serve(incoming, req, Buffer.concat(chunks), res);
      if (!released && options.hold?.(req)) held.push(go);
      else go();
    });
  });

  const reply = (res: http.ServerResponse, answer: ProxyAnswer) => {
    const text = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      ...answer.headers,
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
    });
    res.end(text);
  };

  async function serve(incoming: http.IncomingMessage, req: SeenRequest, body: Buffer, res: http.ServerResponse) {
    try {
      const instead = await options.answer?.(req, undefined);
      if (instead) return reply(res, instead);
      const sent = options.forward?.(req) ?? req;
      const query = sent.query.toString();
      const answer = await new Promise<ProxyAnswer>((resolve, reject) => {
        const outgoing = http.request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: sent.method,
            path: `${sent.path}${query ? `?${query}` : ""}`,
            headers: { ...incoming.headers, host: upstream.host },
          },
          (answered) => {
            const parts: Buffer[] = [];
            answered.on("data", (chunk: Buffer) => parts.push(chunk));
            answered.on("end", () => {
              const text = Buffer.concat(parts).toString("utf8");
              resolve({ status: answered.statusCode ?? 502, body: text ? JSON.parse(text) : {} });
            });
          },
        );
        outgoing.on("error", reject);
        outgoing.end(body);
      });
      reply(res, (await options.answer?.(req, answer)) ?? answer);
    } catch {
      res.destroy();
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    waitFor(match, count = 1) {
      return new Promise<void>((resolve) => {
        waiters.push({ match, count, resolve });
        notify();
      });
    },
    release() {
      released = true;
      const waiting = held;
      held = [];
      for (const go of waiting) go();
    },
    reset() {
      seen.length = 0;
      released = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
