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

/**
 * Both tokens of spec §3 (main and node) are HS256 JWTs naming the same server-side session; the
 * session row, not the token, decides whether a request is allowed (logout and idle revoke it).
 */
export class TokenService {
  private readonly key: Uint8Array;

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
  async verify(token: string, kind?: TokenKind): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const parsed = TokenClaimsSchema.safeParse(payload);
      if (!parsed.success || (kind !== undefined && parsed.data.typ !== kind)) return null;
      return parsed.data;
    } catch {
      return null;
    }
  }
}
