/**
 * Who is calling and what they may touch. A token names an identity; the identity's role
 * bindings give capabilities on groups, and a binding on a group covers its whole subtree.
 */
import { randomBytes } from "node:crypto";
import { unauthenticated } from "./errors";
import { parentOf } from "./ids";
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

/**
 * What one identity may do, answered per request: a group uid's ancestors are walked (a few
 * steps) instead of the grants scanned, and each capability's groups are gathered once.
 */
export class Principal {
  private groupsByCapability = new Map<string, Set<string>>();
  private scopes = new Map<string, string[]>();

  constructor(
    readonly identityUid: string,
    readonly grants: Grant[],
  ) {}

  /** Every group on which some grant gives the capability. */
  private groupsWith(capability: string): Set<string> {
    let groups = this.groupsByCapability.get(capability);
    if (!groups) {
      groups = new Set(this.grants.filter((g) => g.capabilities.has(capability)).map((g) => g.groupUid));
      this.groupsByCapability.set(capability, groups);
    }
    return groups;
  }

  /** A grant on a group covers its subtree: the uid itself or one of its ancestors holds the capability. */
  can(capability: string, uid: string): boolean {
    const groups = this.groupsWith(capability);
    if (groups.size === 0) return false;
    for (let at: string | null = uid; at !== null; at = parentOf(at)) if (groups.has(at)) return true;
    return false;
  }

  /** The fewest group uids whose subtrees hold everything the capability reaches. */
  scope(capability: string): string[] {
    let scope = this.scopes.get(capability);
    if (!scope) {
      const groups = this.groupsWith(capability);
      const coveredAbove = (uid: string) => {
        for (let at = parentOf(uid); at !== null; at = parentOf(at)) if (groups.has(at)) return true;
        return false;
      };
      scope = [...groups].filter((g) => !coveredAbove(g)).sort();
      this.scopes.set(capability, scope);
    }
    return scope;
  }
}

/** Identities whose principals are kept between requests; past it the cache starts again. */
const PRINCIPAL_CACHE_LIMIT = 1024;

export class Auth {
  private tokens = new Map<string, TokenRecord>();
  private principals = new Map<string, { versions: string; principal: Principal }>();

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
    return this.principalOf(record.identityUid);
  }

  /**
   * The identity's principal, rebuilt only when a binding or a role changed since: every request
   * authenticates, and a caller may hold many bindings.
   */
  private principalOf(identityUid: string): Principal {
    const versions = `${this.store.of("roleBindings").version}/${this.store.of("roles").version}`;
    const known = this.principals.get(identityUid);
    if (known?.versions === versions) return known.principal;
    const principal = new Principal(identityUid, this.grantsOf(identityUid));
    if (this.principals.size >= PRINCIPAL_CACHE_LIMIT) this.principals.clear();
    this.principals.set(identityUid, { versions, principal });
    return principal;
  }

  /** One grant per group and role, however many bindings repeat the pair. */
  grantsOf(identityUid: string): Grant[] {
    const roles = this.store.of("roles");
    const grants = new Map<string, Grant>();
    for (const binding of this.store.of("roleBindings").referencing("identityUid", identityUid)) {
      const groupUid = binding.parentUid as string;
      const roleUid = String(binding.data.roleUid);
      const key = `${groupUid} ${roleUid}`;
      if (grants.has(key)) continue;
      const role = roles.get(roleUid);
      grants.set(key, { groupUid, capabilities: new Set((role?.data.capabilities as string[] | undefined) ?? []) });
    }
    return [...grants.values()];
  }
}
