import { describe, expect, it } from 'vitest';
import { SessionIdSchema } from '@kb/contracts/search';
import { newSearchSessionId } from './session-id.ts';

describe('search session ids', () => {
  it('are UUIDs the contract accepts, different each time', () => {
    const a = newSearchSessionId();
    expect(SessionIdSchema.safeParse(a).success).toBe(true);
    expect(newSearchSessionId()).not.toBe(a);
  });

  it('are still valid v4 UUIDs where crypto.randomUUID is missing (plain http)', () => {
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const id = newSearchSessionId();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(SessionIdSchema.safeParse(id).success).toBe(true);
    } finally {
      delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
  });
});
