/**
 * Test clients for look-ups: a plain fetch client against an emulator (independent of the
 * provider's transport, so look-up tests exercise only the look-ups), a client that runs a
 * hook before chosen requests, and a fake that answers crafted pages.
 */
import type { ApiClient, ApiRequest } from "../../core/transport/client";

export function fetchClient(target: { url: string; token: string }, apiVersion = "v2beta1"): ApiClient {
  return {
    async request<T>(req: ApiRequest): Promise<T> {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(req.query ?? {})) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
      }
      const qs = search.toString().replace(/\+/g, "%20");
      const response = await fetch(`${target.url}/${req.domain}/${apiVersion}/${req.path}${qs ? `?${qs}` : ""}`, {
        method: req.method,
        headers: {
          authorization: `Bearer ${target.token}`,
          ...(req.body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      });
      const text = await response.text();
      const body = text ? JSON.parse(text) : undefined;
      if (!response.ok) throw new Error(body?.message ?? `HTTP ${response.status}`);
      return body as T;
    },
  };
}

/** Wraps a client; `before(n, req)` runs before the n-th request (1-based). */
export function hookedClient(
  inner: ApiClient,
  before: (n: number, req: ApiRequest) => void,
): ApiClient & { seen: ApiRequest[] } {
  const seen: ApiRequest[] = [];
  return {
    seen,
    request<T>(req: ApiRequest): Promise<T> {
      seen.push(req);
      before(seen.length, req);
      return inner.request<T>(req);
    },
  };
}

/** Answers each request with the next crafted body (or a function of the request). */
export function fakeClient(pages: unknown[]): ApiClient & { seen: ApiRequest[] } {
  const seen: ApiRequest[] = [];
  return {
    seen,
    async request<T>(req: ApiRequest): Promise<T> {
      seen.push(req);
      if (seen.length > pages.length)
        throw new Error(`fake client: unexpected request ${seen.length}: ${JSON.stringify(req)}`);
      const page = pages[seen.length - 1];
      return (typeof page === "function" ? (page as (r: ApiRequest) => unknown)(req) : page) as T;
    },
  };
}

/** The List requests the emulator logged for one collection path, e.g. "/registry/v2beta1/repos". */
export function listRequests(
  emu: { requests(): Array<{ method: string; path: string; query: Record<string, string | string[]> }> },
  path: string,
) {
  return emu.requests().filter((r) => r.method === "GET" && r.path === path);
}
