import { randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a token issued with /info opens the live pictures; /info's own refresh renews it. */
export const VIEW_TOKEN_TTL_MS = 10 * 60_000;
/** Tokens kept at once: one per open /info page is plenty, and an attacker cannot grow the map. */
const MAX_TOKENS = 256;
export const VIEW_COOKIE = 'mlds_view';

/**
 * Short-lived tokens that let the /info page's live pictures (/screenshot) authenticate with
 * a same-origin cookie instead of the caller's key written into the HTML. A token opens only
 * the live pictures, never the control or admin endpoints.
 */
export class ViewTokens {
  private readonly tokens = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = VIEW_TOKEN_TTL_MS,
  ) {}

  /** A new token, valid for the TTL. */
  issue(): string {
    this.prune();
    while (this.tokens.size >= MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value as string);
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, this.now() + this.ttlMs);
    return token;
  }

  /** True when `token` was issued here and has not expired. */
  check(token: string | undefined): boolean {
    if (!token) return false;
    const given = Buffer.from(token);
    for (const [t, expires] of this.tokens) {
      const mine = Buffer.from(t);
      if (mine.length === given.length && timingSafeEqual(mine, given)) return expires > this.now();
    }
    return false;
  }

  /** The Set-Cookie value carrying a token: HttpOnly, same-site, only sent to /screenshot. */
  cookie(token: string): string {
    const maxAge = Math.floor(this.ttlMs / 1000);
    return `${VIEW_COOKIE}=${token}; Path=/screenshot; Max-Age=${maxAge}; HttpOnly; SameSite=Strict`;
  }

  private prune(): void {
    const now = this.now();
    for (const [t, expires] of this.tokens) if (expires <= now) this.tokens.delete(t);
  }
}
