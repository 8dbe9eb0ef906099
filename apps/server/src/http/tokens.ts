import { SignJWT, jwtVerify } from 'jose';
import type { TokenClaims, TokenKind } from '@kb/contracts/session';
import { TOKEN_TTL_SECONDS, TokenClaimsSchema } from '@kb/contracts/session';

export interface IssuedTokens {
  token: string;
  nodeToken: string;
  expiresAt: Date;
}

export interface TokenSubject {
  userId: number;
  sessionId: string;
  email: string;
  roles: readonly string[];
}

/** Verified tokens kept by their text (about 0.6 KB each: at most about 6 MB). */
const VERIFIED_KEPT = 10_000;

/**
 * Both tokens of spec §3 (main and node) are HS256 JWTs naming the same server-side session; the
 * session row, not the token, decides whether a request is allowed (logout and idle revoke it).
 */
export class TokenService {
  private readonly key: Uint8Array;
  /**
   * Claims of tokens whose signature was checked, by the token's text. Every call of a session
   * brings the same two tokens, and checking an HS256 signature through WebCrypto (jose) took
   * 7.7 s of the main thread's 4 minutes with 20 users at M (issue 39, sixth step). The same text
   * carries the same signature, so a token found here is as verified as one checked again; its
   * expiry is still checked each time.
   */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(subject: TokenSubject, now: Date = new Date()): Promise<IssuedTokens> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + TOKEN_TTL_SECONDS;
    const sign = (typ: TokenKind) =>
      new SignJWT({ sid: subject.sessionId, email: subject.email, roles: [...subject.roles], typ })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(subject.userId))
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(this.key);
    const [token, nodeToken] = await Promise.all([sign('main'), sign('node')]);
    return { token, nodeToken, expiresAt: new Date(exp * 1000) };
  }

  /**
   * The claims of a valid, unexpired token, or null; with `kind`, also null for a token of the other
   * kind (the main token is good only in the main-token header, the node token only in its own).
   */
  async verify(token: string, kind?: TokenKind, now: Date = new Date()): Promise<TokenClaims | null> {
    const claims = this.verified.get(token) ?? (await this.checkSignature(token));
    if (!claims || (kind !== undefined && claims.typ !== kind)) return null;
    if (claims.exp * 1000 <= now.getTime()) {
      this.verified.delete(token);
      return null;
    }
    return claims;
  }

  /** The claims of a token whose signature, algorithm and expiry are right (kept for later calls), or null. */
  private async checkSignature(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const parsed = TokenClaimsSchema.safeParse(payload);
      if (!parsed.success) return null;
      // Oldest out first: a bound on memory whatever the number of sessions.
      if (this.verified.size >= VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, parsed.data);
      return parsed.data;
    } catch {
      return null;
    }
  }
}
