import { describe, expect, it } from 'vitest';
import { findInvalidText, invalidTextMessage, textProblem } from './text.ts';

describe('the invalid-text rule', () => {
  it('finds NUL and lone surrogates, and accepts any well-formed text', () => {
    expect(textProblem('a\u0000b')).toBe('nul');
    expect(textProblem('\ud800')).toBe('surrogate');
    expect(textProblem('x\udc00')).toBe('surrogate');
    expect(textProblem('😀 αβγ ‮ e\u0301 \t\n')).toBeNull();
  });

  it('names the field, in arrays, nested objects and keys', () => {
    expect(findInvalidText({ rows: [{ value: 'ok' }, { value: 'bad\u0000' }] }, 'body')).toEqual({ path: 'body.rows.1.value', reason: 'nul' });
    expect(findInvalidText({ ['k\u0000']: 1 }, 'query')).toEqual({ path: 'query.k\u0000', reason: 'nul' });
    expect(findInvalidText({ a: { b: ['\udfff'] } }, 'body')).toEqual({ path: 'body.a.b.0', reason: 'surrogate' });
    expect(findInvalidText({ a: 1, b: [true, null, 'fine'] }, 'body')).toBeNull();
  });

  it('refuses absurd nesting without recursion', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInvalidText(deep, 'body')).toMatchObject({ reason: 'depth' });
    expect(invalidTextMessage({ path: 'body.rows', reason: 'nul' })).toContain('body.rows');
  });
});
