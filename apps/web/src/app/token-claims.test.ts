import { describe, expect, it } from 'vitest';
import { readTokenPayload, readTokenRoles } from './token-claims.ts';

function jwt(payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

describe('token claims', () => {
  it('reads the roles claim of a JWT', () => {
    expect(readTokenRoles(jwt({ sub: '1', roles: ['FULL_USER', 'GOSTAR_ADMIN'] }))).toEqual(['FULL_USER', 'GOSTAR_ADMIN']);
  });

  it('drops unknown role names', () => {
    expect(readTokenRoles(jwt({ roles: ['FULL_USER', 'ROOT'] }))).toEqual(['FULL_USER']);
  });

  it('decodes base64url payloads with non-ASCII text', () => {
    expect(readTokenPayload(jwt({ email: 'zoë@demo.test', n: '???>>>' }))).toEqual({ email: 'zoë@demo.test', n: '???>>>' });
  });

  it('answers no roles for malformed tokens', () => {
    expect(readTokenRoles('not-a-token')).toEqual([]);
    expect(readTokenRoles('a.!!!.c')).toEqual([]);
    expect(readTokenRoles(jwt({ roles: 'FULL_USER' }))).toEqual([]);
  });
});
