import { describe, expect, it } from 'vitest';
import { DQ_ENTITIES, dqEntityInfo, dqQueryProblem } from '@kb/contracts/dynamic-query';
import { draftForEntity, draftFromQuery, newFilter, splitList, toQuery, typedValue } from './dq-draft.ts';

const activities = dqEntityInfo(DQ_ENTITIES.activities);

describe('dynamic query drafts', () => {
  it('turns typed text into numbers for number columns and keeps text that is not a number for the server to name', () => {
    expect(typedValue('number', ' 12.5 ')).toBe(12.5);
    expect(typedValue('integer', '7')).toBe(7);
    expect(typedValue('number', 'abc')).toBe('abc');
    expect(typedValue('text', ' Ki ')).toBe(' Ki ');
    expect(typedValue('date', ' 2020-01-31 ')).toBe('2020-01-31');
  });

  it('splits a list on commas and new lines, dropping blanks', () => {
    expect(splitList('IC50, Ki\n\nKd,')).toEqual(['IC50', 'Ki', 'Kd']);
  });

  it('builds a query the whitelist accepts, columns in the table’s order, and reads a saved one back', () => {
    const draft = draftForEntity(activities);
    draft.columns = ['smiles', 'act_id'];
    const value = newFilter(activities.columns.find((c) => c.key === 'activity_value')!);
    draft.filters = [
      { ...value, operator: 'between', value: '1', value2: '10' },
      { ...newFilter(activities.columns.find((c) => c.key === 'std_activity_type')!), operator: 'in', values: 'Ki, IC50' },
    ];
    draft.sort = { column: 'activity_value', direction: 'desc' };
    const query = toQuery(draft, activities);
    expect(query).toEqual({
      entity: 'activities',
      columns: ['act_id', 'smiles'],
      filters: [
        { column: 'activity_value', operator: 'between', value: 1, value2: 10 },
        { column: 'std_activity_type', operator: 'in', values: ['Ki', 'IC50'] },
      ],
      sort: { column: 'activity_value', direction: 'desc' },
    });
    expect(dqQueryProblem(query)).toBeNull();
    expect(toQuery(draftFromQuery(query), activities)).toEqual(query);
  });

  it('leaves a value of the wrong type for the whitelist check to refuse', () => {
    const draft = draftForEntity(activities);
    draft.filters = [{ ...newFilter(activities.columns.find((c) => c.key === 'activity_value')!), operator: 'gt', value: 'ten' }];
    expect(dqQueryProblem(toQuery(draft, activities))?.message).toMatch(/must be a number/);
  });
});
