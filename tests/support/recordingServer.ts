/**
 * A loopback HTTP server for tests of what the client sends: it answers every request with the
 * given handler and logs each as "METHOD path" (the query left out unless asked for).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingServer {
  url: string;
  hits: string[];
  server: http.Server;
}

export async function recordingServer(
  handler: http.RequestListener,
  options: { withQuery?: boolean } = {},
): Promise<RecordingServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${options.withQuery ? req.url : String(req.url).split("?")[0]}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}
