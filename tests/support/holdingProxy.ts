/**
 * A loopback proxy in front of the emulator that stops a run at chosen writes, for the stories
 * that kill `pulumi up` in the middle of its creates: each chosen request is applied by the
 * emulator and its answer then held (the record exists; the provider never learns its uid), and
 * every other write the test does not let through is parked, unanswered and unapplied. Reads
 * always pass, so look-ups and the provider's own reads behave as on the emulator itself.
 *
 * The test waits on events (so many writes held, so many parked), never on the clock; held and
 * parked connections end when their client dies or at close().
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** A write as the proxy saw it: method, path (no query) and the JSON body. */
export interface ProxiedWrite {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

/** A held write, with the emulator's status for it. */
export interface HeldWrite extends ProxiedWrite {
  status: number;
}

export interface HoldingProxyOptions {
  /** The emulator's base URL. */
  upstream: string;
  /** The writes to apply and then hold the answers of. */
  hold: (write: ProxiedWrite) => boolean;
  /** Writes forwarded as usual; every other write is parked. */
  pass: (write: ProxiedWrite) => boolean;
}

export interface HoldingProxy {
  url: string;
  /** Resolves once `count` held writes have been applied by the emulator. */
  held(count: number): Promise<HeldWrite[]>;
  /** Resolves once `count` writes are parked. */
  parked(count: number): Promise<ProxiedWrite[]>;
  /** Resolves once every held or parked connection has been closed by its client. */
  allClientsGone(): Promise<void>;
  /** From now on every request passes, as if the emulator were asked directly. */
  release(): void;
  /**
   * From now on, once released, the answer to a write `late` picks (applied by the emulator at
   * once) is held until a write `first` picks has reached the proxy: an order of events the test
   * needs and a loaded machine may not keep by itself.
   */
  answerAfter(late: (write: ProxiedWrite) => boolean, first: (write: ProxiedWrite) => boolean): void;
  close(): Promise<void>;
}

/** A list that grows, and promises of its first `count` entries. */
class Tally<T> {
  readonly items: T[] = [];
  private waiters: Array<{ count: number; resolve: (items: T[]) => void }> = [];

  add(item: T): void {
    this.items.push(item);
    const ready = this.waiters.filter((w) => this.items.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.items.length < w.count);
    for (const waiter of ready) waiter.resolve(this.items.slice(0, waiter.count));
  }

  reached(count: number): Promise<T[]> {
    if (this.items.length >= count) return Promise.resolve(this.items.slice(0, count));
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

export async function holdingProxy(options: HoldingProxyOptions): Promise<HoldingProxy> {
  const upstream = new URL(options.upstream);
  const held = new Tally<HeldWrite>();
  const parked = new Tally<ProxiedWrite>();
  const waitingConnections = new Set<http.ServerResponse>();
  const goneWaiters: Array<() => void> = [];
  let released = false;
  let order: { late: (write: ProxiedWrite) => boolean; first: (write: ProxiedWrite) => boolean } | undefined;
  let firstArrived = () => {};
  const firstHasArrived = new Promise<void>((resolve) => (firstArrived = resolve));

  const keepWaiting = (res: http.ServerResponse) => {
    waitingConnections.add(res);
    res.once("close", () => {
      waitingConnections.delete(res);
      if (waitingConnections.size === 0) for (const gone of goneWaiters.splice(0)) gone();
    });
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const method = String(req.method);
      if (method === "GET" || method === "HEAD") return forward(req, body, res);
      const write: ProxiedWrite = { method, path: String(req.url).split("?")[0], body: parseBody(body) };
      if (released) {
        if (order?.first(write)) firstArrived();
        return forward(req, body, res, undefined, order?.late(write) ? firstHasArrived : undefined);
      }
      if (options.hold(write)) {
        keepWaiting(res);
        return forward(req, body, undefined, (status) => held.add({ ...write, status }));
      }
      if (options.pass(write)) return forward(req, body, res);
      keepWaiting(res);
      parked.add(write);
    });
  });

  /**
   * Sends the request on to the emulator; answers `res` with its answer (once `answerWhen` resolves,
   * if given), or only reports the status.
   */
  function forward(
    req: http.IncomingMessage,
    body: Buffer,
    res: http.ServerResponse | undefined,
    applied?: (status: number) => void,
    answerWhen?: Promise<void>,
  ): void {
    const headers = { ...req.headers, host: upstream.host };
    const outgoing = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const answerChunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => answerChunks.push(chunk));
        answer.on("end", () => {
          applied?.(answer.statusCode ?? 0);
          if (!res) return;
          const reply = res;
          const send = () => {
            if (reply.destroyed) return;
            reply.writeHead(answer.statusCode ?? 502, answer.headers);
            reply.end(Buffer.concat(answerChunks));
          };
          if (answerWhen) {
            keepWaiting(reply);
            void answerWhen.then(send);
          } else send();
        });
      },
    );
    // The emulator unreachable: the client sees its connection dropped, a held write status 0.
    outgoing.on("error", () => {
      applied?.(0);
      res?.destroy();
    });
    outgoing.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: (count) => held.reached(count),
    parked: (count) => parked.reached(count),
    allClientsGone: () =>
      waitingConnections.size === 0 ? Promise.resolve() : new Promise((resolve) => goneWaiters.push(resolve)),
    release: () => void (released = true),
    answerAfter: (late, first) => void (order = { late, first }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function parseBody(body: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body.toString("utf8") || "{}");
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
