import { describe, expect, it } from 'vitest';
import { containsPattern, escapeLike } from './like-pattern.ts';

describe('LIKE patterns', () => {
  it('escapes the wildcards and the escape character so that they match literally', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('plain')).toBe('%plain%');
  });
});
