import { describe, expect, it } from 'vitest';
import { parseSheetSource, picksRows, sheetHref } from './sheet-source.ts';
import type { PickedRows } from './sheet-source.ts';

const SESSION = '2f1c7a52-9a41-4c1e-8d0a-3b5f6e7d8c9a';
const none = () => null;
const parse = (query: string, lookup: (token: string) => PickedRows | null = none) => parseSheetSource(new URLSearchParams(query), lookup);

describe('parseSheetSource', () => {
  it('reads a results tab of a session, Structures by default', () => {
    expect(parse(`session=${SESSION}&tab=activitiestab`)).toEqual({
      ok: true,
      source: { kind: 'session', sessionid: SESSION, tab: 'activitiestab' },
    });
    expect(parse(`session=${SESSION}`)).toEqual({ ok: true, source: { kind: 'session', sessionid: SESSION, tab: 'structuretab' } });
  });

  it('adds the ticked rows kept under the token', () => {
    const picked: PickedRows = { selection: { selectAll: false, selectedIds: [4, 9], unselectedIds: [] }, strIdList: [4, 9, 11] };
    const result = parse(`session=${SESSION}&tab=structuretab&pick=abc`, (token) => (token === 'abc' ? picked : null));
    expect(result).toEqual({ ok: true, source: { kind: 'session', sessionid: SESSION, tab: 'structuretab', ...picked } });
  });

  it('says so when the ticked rows are not in this browser', () => {
    const result = parse(`session=${SESSION}&pick=gone`);
    expect(result.ok).toBe(false);
  });

  it('refuses a session id that is no UUID and a tab that is no tab', () => {
    expect(parse('session=abc').ok).toBe(false);
    expect(parse(`session=${SESSION}&tab=nonsense`)).toEqual({ ok: false, message: '“nonsense” is not a results tab.' });
  });

  it('reads a collection and refuses a bad id', () => {
    expect(parse('collection=12')).toEqual({ ok: true, source: { kind: 'collection', collectionId: 12 } });
    expect(parse('collection=-3').ok).toBe(false);
    expect(parse('collection=x').ok).toBe(false);
  });

  it('reads ids, dropping repeats, and refuses what is no id', () => {
    expect(parse('ids=3,5,3,%207')).toEqual({ ok: true, source: { kind: 'ids', strIds: [3, 5, 7] } });
    expect(parse('ids=3,abc').ok).toBe(false);
    expect(parse('ids=').ok).toBe(false);
  });

  it('reads a written-out source and says what is wrong with a bad one', () => {
    const source = { kind: 'collection', collectionId: 4 };
    expect(parse(`source=${encodeURIComponent(JSON.stringify(source))}`)).toEqual({ ok: true, source });
    expect(parse('source=%7Bnot json').ok).toBe(false);
    expect(parse(`source=${encodeURIComponent(JSON.stringify({ kind: 'ids', strIds: [] }))}`)).toEqual({
      ok: false,
      message: 'Choose at least one compound',
    });
  });

  it('says what to do when the address names nothing', () => {
    expect(parse('').ok).toBe(false);
  });
});

describe('sheetHref', () => {
  it('writes each source so that parsing reads it back', () => {
    const sources = [
      { kind: 'collection' as const, collectionId: 8 },
      { kind: 'ids' as const, strIds: [1, 2, 3] },
      { kind: 'session' as const, sessionid: SESSION, tab: 'activitiestab' as const },
    ];
    for (const source of sources) {
      const href = sheetHref(source);
      expect(href.startsWith('/sheet?')).toBe(true);
      expect(parse(href.slice('/sheet?'.length))).toEqual({ ok: true, source });
    }
  });

  it('names the token of ticked rows, and writes out a long id list whole', () => {
    expect(sheetHref({ kind: 'session', sessionid: SESSION, tab: 'structuretab' }, 'tok1')).toBe(
      `/sheet?session=${SESSION}&tab=structuretab&pick=tok1`,
    );
    const many = { kind: 'ids' as const, strIds: Array.from({ length: 2_001 }, (_, i) => i + 1) };
    const href = sheetHref(many);
    expect(href).toContain('source=');
    expect(parse(href.slice('/sheet?'.length))).toEqual({ ok: true, source: many });
  });
});

describe('picksRows', () => {
  it('is true for ticked rows or select all', () => {
    expect(picksRows(null)).toBe(false);
    expect(picksRows({ selectAll: false, selectedIds: [], unselectedIds: [] })).toBe(false);
    expect(picksRows({ selectAll: true, selectedIds: [], unselectedIds: [5] })).toBe(true);
    expect(picksRows({ selectAll: false, selectedIds: [1], unselectedIds: [] })).toBe(true);
  });
});
