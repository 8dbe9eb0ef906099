import { describe, expect, it } from 'vitest';
import { SAVED_QUERY_FORMAT } from '@kb/contracts/search';
import { parseSavedQueryText, savedQueryFileName } from './saved-query-file.ts';

const valid = {
  format: SAVED_QUERY_FORMAT,
  name: 'EGFR inhibitors',
  savedAt: '2026-01-02T10:00:00.000Z',
  searchcriteria: { rows: [{ selectedOption: 'activitymechanism', operator: null, mechanisms: ['Inhibitor'] }] },
  appliedFilters: [{ chartKey: 'year', include: [2020] }],
};

describe('opening a saved query file', () => {
  it('reads a file written by "Save query"', () => {
    const result = parseSavedQueryText(JSON.stringify(valid));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.file.searchcriteria.rows[0]).toMatchObject({ selectedOption: 'activitymechanism', mechanisms: ['Inhibitor'] });
      expect(result.file.appliedFilters).toEqual([{ chartKey: 'year', include: [2020] }]);
    }
  });

  it('says so when the file is not JSON', () => {
    expect(parseSavedQueryText('CCO\nc1ccccc1')).toEqual({ ok: false, message: 'This file is not a saved query: it is not a JSON file.' });
  });

  it('says so when the JSON is some other file', () => {
    const result = parseSavedQueryText(JSON.stringify({ rows: [] }));
    expect(result).toEqual({ ok: false, message: `This file is not a saved KB Search query (expected format ${SAVED_QUERY_FORMAT}).` });
  });

  it('names the broken part of a damaged saved query', () => {
    const damaged = { ...valid, searchcriteria: { rows: [{ selectedOption: 'nonsense', operator: null }] } };
    const result = parseSavedQueryText(JSON.stringify(damaged));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/^This saved query is damaged at searchcriteria\.rows\.0\.selectedOption/);
  });
});

describe('saved query file names', () => {
  it('keeps the name readable and safe for file systems', () => {
    expect(savedQueryFileName('EGFR / kinase: "hits"')).toBe('EGFR - kinase- -hits-.json');
    expect(savedQueryFileName('  ')).toBe('search.json');
    expect(savedQueryFileName('mine.JSON')).toBe('mine.JSON');
  });
});
