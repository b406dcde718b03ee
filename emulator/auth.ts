/**
 * Who is calling and what they may touch. A token names an identity; the identity's role
 * bindings give capabilities on groups, and a binding on a group covers its whole subtree.
 */
import { randomBytes } from "node:crypto";
import { unauthenticated } from "./errors";
import { inSubtree } from "./ids";
import { Store } from "./store";
import { Clock } from "./clock";

export interface TokenRecord {
  identityUid: string;
  /** Epoch ms by the emulator clock; null = never (the dev token). */
  expiresAt: number | null;
}

export interface Grant {
  groupUid: string;
  capabilities: Set<string>;
}

export class Principal {
  constructor(
    readonly identityUid: string,
    readonly grants: Grant[],
  ) {}

  can(capability: string, uid: string): boolean {
    return this.grants.some((g) => g.capabilities.has(capability) && inSubtree(uid, g.groupUid));
  }

  /** The fewest group uids whose subtrees hold everything the capability reaches. */
  scope(capability: string): string[] {
    const groups = [...new Set(this.grants.filter((g) => g.capabilities.has(capability)).map((g) => g.groupUid))];
    return groups.filter((g) => !groups.some((other) => other !== g && inSubtree(g, other))).sort();
  }
}

export class Auth {
  private tokens = new Map<string, TokenRecord>();

  constructor(
    private store: Store,
    private clock: Clock,
  ) {}

  register(token: string, record: TokenRecord): void {
    this.tokens.set(token, record);
  }

  private refreshTokens = new Map<string, { identityUid: string; ttlSeconds: number }>();

  issue(identityUid: string, ttlSeconds: number): { token: string; expiry: string; refreshToken: string } {
    const token = `emu_${randomBytes(24).toString("base64url")}`;
    const expiresAt = this.clock.now() + ttlSeconds * 1000;
    this.tokens.set(token, { identityUid, expiresAt });
    const refreshToken = `emur_${randomBytes(24).toString("base64url")}`;
    this.refreshTokens.set(refreshToken, { identityUid, ttlSeconds });
    return { token, expiry: new Date(expiresAt).toISOString(), refreshToken };
  }

  /** A refresh token is used once: it yields a new token and a new refresh token. */
  refresh(refreshToken: string): { token: string; expiry: string; refreshToken: string } {
    const grant = this.refreshTokens.get(refreshToken);
    if (!grant) throw unauthenticated("the refresh token is not recognized or was already used");
    this.refreshTokens.delete(refreshToken);
    return this.issue(grant.identityUid, grant.ttlSeconds);
  }

  authenticate(header: string | undefined): Principal {
    if (!header) throw unauthenticated("missing Authorization header; send Authorization: Bearer <token>");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthenticated("the Authorization header must be Bearer <token>");
    const record = this.tokens.get(match[1]);
    if (!record)
      throw unauthenticated(
        "the bearer token is not recognized; obtain one from /sts/exchange or use the emulator's dev token",
      );
    if (record.expiresAt !== null && this.clock.now() >= record.expiresAt) {
      throw unauthenticated(
        `the bearer token expired at ${new Date(record.expiresAt).toISOString()}; exchange a fresh one`,
      );
    }
    return new Principal(record.identityUid, this.grantsOf(record.identityUid));
  }

  grantsOf(identityUid: string): Grant[] {
    const roles = this.store.of("roles");
    return this.store
      .of("roleBindings")
      .referencing("identityUid", identityUid)
      .map((binding) => {
        const role = roles.get(String(binding.data.roleUid));
        return {
          groupUid: binding.parentUid as string,
          capabilities: new Set((role?.data.capabilities as string[] | undefined) ?? []),
        };
      });
  }
}
