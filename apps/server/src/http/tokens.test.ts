import { describe, expect, it } from 'vitest';
import { TOKEN_TTL_SECONDS } from '@kb/contracts/session';
import { TokenService } from './tokens.ts';

const subject = { userId: 7, sessionId: '3f1c9a4e-0b1d-4d7e-9a51-2c4a8e6b7d10', email: 'a@example.test', roles: ['full_user'] };

/** The token with one character of its signature changed. */
function tampered(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

describe('TokenService', () => {
  it('answers the claims of its own tokens, each only as its kind', async () => {
    const tokens = new TokenService('a secret of enough length for HS256 here');
    const issued = await tokens.issue(subject);
    for (let round = 0; round < 2; round++) {
      // The second round answers from the verified tokens kept: the same answers.
      expect(await tokens.verify(issued.token, 'main')).toMatchObject({ sub: '7', sid: subject.sessionId, typ: 'main' });
      expect(await tokens.verify(issued.nodeToken, 'node')).toMatchObject({ sub: '7', typ: 'node' });
      expect(await tokens.verify(issued.token, 'node')).toBeNull();
      expect(await tokens.verify(issued.nodeToken, 'main')).toBeNull();
    }
  });

  it('refuses a changed signature and another secret, also after the genuine token was verified', async () => {
    const tokens = new TokenService('a secret of enough length for HS256 here');
    const issued = await tokens.issue(subject);
    expect(await tokens.verify(issued.token, 'main')).not.toBeNull();
    expect(await tokens.verify(tampered(issued.token), 'main')).toBeNull();
    expect(await new TokenService('another secret of enough length for HS256').verify(issued.token, 'main')).toBeNull();
    expect(await tokens.verify('not.a.token', 'main')).toBeNull();
  });

  it('refuses an expired token, whether it was verified before or not', async () => {
    const tokens = new TokenService('a secret of enough length for HS256 here');
    const old = await tokens.issue(subject, new Date(Date.now() - (TOKEN_TTL_SECONDS + 60) * 1000));
    expect(await tokens.verify(old.token, 'main')).toBeNull();
    const fresh = await tokens.issue(subject);
    expect(await tokens.verify(fresh.token, 'main')).not.toBeNull();
    const afterExpiry = new Date(fresh.expiresAt.getTime() + 1000);
    expect(await tokens.verify(fresh.token, 'main', afterExpiry)).toBeNull();
  });
});
