import { SignJWT, jwtVerify } from 'jose';
import type { TokenClaims } from '@kb/contracts/session';
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
    const sign = (typ: 'main' | 'node') =>
      new SignJWT({ sid: subject.sessionId, email: subject.email, roles: [...subject.roles], typ })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(subject.userId))
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(this.key);
    const [token, nodeToken] = await Promise.all([sign('main'), sign('node')]);
    return { token, nodeToken, expiresAt: new Date(exp * 1000) };
  }

  /** The claims of a valid, unexpired token, or null. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const parsed = TokenClaimsSchema.safeParse(payload);
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
