/**
 * A loopback proxy in front of the emulator that stops a run at a chosen write, for the stories
 * that kill `pulumi up` in the middle of a create: the chosen request is applied by the
 * emulator and its answer is then held (the record exists; the provider never learns its uid),
 * and every other write the test does not let through is parked unanswered and unapplied. Reads
 * always pass, so look-ups and the provider's own reads behave as on the emulator itself.
 *
 * The test waits on events (the held write applied, the expected writes parked), never on the
 * clock; the held and parked connections are closed by the client's death or by close().
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** A write as the proxy saw it: method, path (no query) and the JSON body. */
export interface ProxiedWrite {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

/** The held write, with the emulator's status for it. */
export interface HeldWrite extends ProxiedWrite {
  status: number;
}

export interface HoldingProxyOptions {
  /** The emulator's base URL. */
  upstream: string;
  /** The write to apply and then hold the answer of (the first one that matches). */
  hold: (write: ProxiedWrite) => boolean;
  /** Writes forwarded as usual; every other write is parked. */
  pass: (write: ProxiedWrite) => boolean;
}

export interface HoldingProxy {
  url: string;
  /** The held write, once the emulator has applied it. */
  held: Promise<HeldWrite>;
  /** The writes parked so far, in arrival order. */
  parked(): ProxiedWrite[];
  /** Resolves once `count` writes are parked. */
  parkedCount(count: number): Promise<ProxiedWrite[]>;
  /** Resolves once every held or parked connection has been closed by its client. */
  allClientsGone(): Promise<void>;
  /** From now on every request passes, as if the emulator were asked directly. */
  release(): void;
  close(): Promise<void>;
}

export async function holdingProxy(options: HoldingProxyOptions): Promise<HoldingProxy> {
  const upstream = new URL(options.upstream);
  const parked: ProxiedWrite[] = [];
  const waitingConnections = new Set<http.ServerResponse>();
  const parkWaiters: Array<{ count: number; resolve: (writes: ProxiedWrite[]) => void }> = [];
  const goneWaiters: Array<() => void> = [];
  let heldOnce = false;
  let released = false;
  let resolveHeld!: (write: HeldWrite) => void;
  let rejectHeld!: (error: Error) => void;
  const held = new Promise<HeldWrite>((resolve, reject) => {
    resolveHeld = resolve;
    rejectHeld = reject;
  });
  // A test that never reaches its hold point fails on its own assertion, not on an unhandled rejection.
  held.catch(() => undefined);

  const wait = (res: http.ServerResponse) => {
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
      const path = String(req.url).split("?")[0];
      if (released || method === "GET" || method === "HEAD") return forward(req, body, res);
      const write: ProxiedWrite = { method, path, body: parseBody(body) };
      if (!heldOnce && options.hold(write)) {
        heldOnce = true;
        wait(res);
        return forward(req, body, undefined, (status) => resolveHeld({ ...write, status }));
      }
      if (options.pass(write)) return forward(req, body, res);
      parked.push(write);
      wait(res);
      for (const waiter of parkWaiters.filter((w) => parked.length >= w.count)) {
        parkWaiters.splice(parkWaiters.indexOf(waiter), 1);
        waiter.resolve([...parked]);
      }
    });
  });

  /** Sends the request on to the emulator; answers `res` with its answer, or reports only the status. */
  function forward(
    req: http.IncomingMessage,
    body: Buffer,
    res: http.ServerResponse | undefined,
    applied?: (status: number) => void,
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
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(answerChunks));
        });
      },
    );
    outgoing.on("error", (error) => {
      if (applied) rejectHeld(error);
      res?.destroy(error);
    });
    outgoing.end(body);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    parked: () => [...parked],
    parkedCount: (count) =>
      parked.length >= count
        ? Promise.resolve([...parked])
        : new Promise((resolve) => parkWaiters.push({ count, resolve })),
    allClientsGone: () =>
      waitingConnections.size === 0 ? Promise.resolve() : new Promise((resolve) => goneWaiters.push(resolve)),
    release: () => void (released = true),
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
