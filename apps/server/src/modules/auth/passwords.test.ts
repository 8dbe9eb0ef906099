import { describe, expect, it } from 'vitest';
import { PASSWORD_THREAD_NICE, hashPassword, passwordThreadNice, verifyPassword } from './passwords.ts';

describe('passwords on their own thread', () => {
  it('hashes with argon2id and checks the right password only', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery stapler')).toBe(false);
  });

  it('answers false, not an error, for a stored hash that is not a hash and for no account', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(await verifyPassword(null, 'anything')).toBe(false);
  });

  it('checks side by side requests in turn, each with its own answer', async () => {
    const hash = await hashPassword('first password 123');
    const answers = await Promise.all(['first password 123', 'wrong', 'first password 123'].map((p) => verifyPassword(hash, p)));
    expect(answers).toEqual([true, false, true]);
  });

  it('runs the thread at the raised priority where the process may raise it (root), else at its own', async () => {
    const nice = await passwordThreadNice();
    if (process.platform !== 'linux') return expect(nice).toBeNull();
    // Root holds CAP_SYS_NICE; anyone else is refused a negative value and keeps the process's 0.
    expect(nice).toBe(process.getuid?.() === 0 ? PASSWORD_THREAD_NICE : 0);
  });
});
