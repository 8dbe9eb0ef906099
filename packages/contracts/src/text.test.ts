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
    expect(findInvalidText({ rows: [{ value: 'ok' }, { value: 'bad\u0000' }] }, 'body')).toEqual({
      path: 'body.rows.1.value',
      reason: 'nul',
    });
    expect(findInvalidText({ ['k\u0000']: 1 }, 'query')).toEqual({ path: 'query.k\u0000', reason: 'nul' });
    expect(findInvalidText({ a: { b: ['\udfff'] } }, 'body')).toEqual({ path: 'body.a.b.0', reason: 'surrogate' });
    expect(findInvalidText({ a: 1, b: [true, null, 'fine'] }, 'body')).toBeNull();
    // Query strings and path parameters come as objects of the parsers' own prototypes: walked.
    expect(findInvalidText(Object.assign(Object.create(null) as object, { q: 'x\u0000' }), 'query')).toEqual({
      path: 'query.q',
      reason: 'nul',
    });
    function Empty() {}
    Empty.prototype = Object.create(null) as object;
    const parsed = Object.assign(Object.create(Empty.prototype as object) as object, { id: 'x\u0000' });
    expect(findInvalidText(parsed, 'path')).toEqual({ path: 'path.id', reason: 'nul' });
    // A stream or bytes (an upload's body) are not text.
    expect(findInvalidText({ pipe: () => undefined, self: 'x\u0000' }, 'body')).toBeNull();
    const looped: { self?: unknown; text: string } = { text: 'x\u0000' };
    looped.self = looped;
    // A cycle in a plain object (not from JSON, but possible) ends at the depth bound.
    expect(findInvalidText(looped, 'body')).not.toBeNull();
    expect(findInvalidText(Buffer.from('a\u0000b'), 'body')).toBeNull();
  });

  it('refuses absurd nesting without recursion', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findInvalidText(deep, 'body')).toMatchObject({ reason: 'depth' });
    expect(invalidTextMessage({ path: 'body.rows', reason: 'nul' })).toContain('body.rows');
  });
});
