import * as http from "node:http";
import { AddressInfo } from "node:net";
import type { RunningEmulator } from "../../emulator";

export interface ActionsTokenEndpoint {
  /** What GitHub gives a job with `permissions: id-token: write`. */
  env: { ACTIONS_ID_TOKEN_REQUEST_URL: string; ACTIONS_ID_TOKEN_REQUEST_TOKEN: string };
  /** The OIDC tokens handed out so far. */
  minted: string[];
  close(): Promise<void>;
}

const REQUEST_TOKEN = "actions-request-token-of-the-test";

/**
 * A local stand-in of GitHub Actions' OIDC token endpoint: it answers a request bearing the job's
 * request token with a token of the emulator's own issuer for `subject()` and the audience asked for.
 */
export async function startActionsTokenEndpoint(
  emu: RunningEmulator,
  subject: () => string,
): Promise<ActionsTokenEndpoint> {
  const minted: string[] = [];
  const server = http.createServer((req, res) => {
    const audience = new URL(String(req.url), "http://x").searchParams.get("audience") ?? "";
    if (req.headers.authorization !== `bearer ${REQUEST_TOKEN}`) {
      res.writeHead(403).end();
      return;
    }
    void emu.mintOidcToken({ subject: subject(), audience }).then((value) => {
      minted.push(value);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ value }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    env: {
      ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${port}/_apis/token?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN,
    },
    minted,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
