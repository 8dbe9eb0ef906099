import { describe, expect, it } from 'vitest';
import { SearchCriteriaSchema } from '@kb/contracts/search';
import type { RowDraft, DraftOf } from './row-drafts.ts';
import { emptyActivityTerm, emptyPatent, newDraft } from './row-drafts.ts';
import { buildCriteria, clearLastOperator, digitIds, rowHasValue, toCriteriaRow } from './row-criteria.ts';
import { criteriaToDrafts } from './row-restore.ts';

function draft<O extends Exclude<RowDraft['selectedOption'], 'treeview'>>(option: O, fields: Partial<DraftOf<O>> = {}): DraftOf<O> {
  return { ...(newDraft(option) as DraftOf<O>), ...fields };
}

describe('row → criteria conversion', () => {
  it('starts a new Structure row on SMILES, searched as a substructure', () => {
    expect(newDraft('structure')).toMatchObject({ inputType: 'smiles', category: 'substructure', feature: 'desalted', value: '' });
  });

  it('sends a name search as exact, desalted, with the read-only marker of a look-up', () => {
    const result = toCriteriaRow(draft('structure', { inputType: 'name', category: 'exact', value: ' aspirin ', readOnly: true }));
    expect(result.errors).toEqual({});
    expect(result.row).toMatchObject({
      selectedOption: 'structure',
      operator: 'AND',
      structure: { inputType: 'name', value: 'aspirin', category: 'exact', feature: 'desalted', readOnly: true },
      properties: null,
    });
  });

  it('keeps structure ids and CAS numbers apart and refuses ids that are not all digits', () => {
    const ok = toCriteriaRow(draft('structure', { strIds: ['12', ' 7 ', '12'], casNumbers: ['50-78-2'] }));
    expect(ok.row).toMatchObject({ strIds: [12, 7], casNumbers: ['50-78-2'], structure: null });

    const bad = toCriteriaRow(draft('structure', { strIds: ['12', '50-78-2', 'abc'] }));
    expect(bad.row).toBeNull();
    expect(bad.empty).toBe(false);
    expect(bad.errors.strIds).toContain('“50-78-2”');
    expect(bad.errors.strIds).toContain('“abc”');
  });

  it('reports a property minimum above its maximum on the minimum field', () => {
    const result = toCriteriaRow(draft('structure', { properties: { molmin: 600, molmax: 500 } }));
    expect(result.row).toBeNull();
    expect(result.errors).toEqual({ 'properties.molmin': 'The minimum is above the maximum' });
  });

  it('drops similarity bounds unless the category is similarity, and checks them when it is', () => {
    const sub = toCriteriaRow(
      draft('structure', { inputType: 'smiles', value: 'c1ccccc1', category: 'substructure', similarityMin: 0.9, similarityMax: 0.1 }),
    );
    expect(sub.row).toMatchObject({ structure: { similarityMin: null, similarityMax: null } });
    const sim = toCriteriaRow(
      draft('structure', { inputType: 'smiles', value: 'c1ccccc1', category: 'similarity', similarityMin: 0.9, similarityMax: 0.1 }),
    );
    expect(sim.errors['structure.similarityMin']).toBe('Minimum similarity is above the maximum');
  });

  it('sends "nearest only" with a similarity row, not with other categories nor from a results filter, and checks it', () => {
    const smiles = { inputType: 'smiles' as const, value: 'c1ccccc1' };
    expect(toCriteriaRow(draft('structure', { ...smiles, category: 'similarity', similarityNearest: 50 })).row).toMatchObject({
      structure: { similarityNearest: 50 },
    });
    expect(toCriteriaRow(draft('structure', { ...smiles, category: 'substructure', similarityNearest: 50 })).row).toMatchObject({
      structure: { similarityNearest: null },
    });
    expect(
      toCriteriaRow(draft('structure', { ...smiles, category: 'similarity', similarityNearest: 50, resultFilter: true })).row,
    ).toMatchObject({ structure: { similarityNearest: null } });
    const tooMany = toCriteriaRow(draft('structure', { ...smiles, category: 'similarity', similarityNearest: 20_000 }));
    expect(tooMany.row).toBeNull();
    expect(tooMany.errors['structure.similarityNearest']).toMatch(/1 to 10,000 nearest/);
    // Restored from saved criteria as it was sent.
    const restored = criteriaToDrafts({
      rows: [toCriteriaRow(draft('structure', { ...smiles, category: 'similarity', similarityNearest: 50 })).row!],
    })[0]!;
    expect(restored).toMatchObject({ category: 'similarity', similarityNearest: 50 });
  });

  it('refuses the R prefix without both values and a range whose minimum is above its maximum', () => {
    const missing = toCriteriaRow(
      draft('activitytypes', { activities: [{ ...emptyActivityTerm(), activityType: 'IC50', prefix: 'R', minValue: 1 }] }),
    );
    expect(missing.errors['activities.0.minValue']).toBe('A range (R) needs both a minimum and a maximum');
    const reversed = toCriteriaRow(
      draft('activitytypes', { activities: [{ ...emptyActivityTerm(), activityType: 'IC50', prefix: 'R', minValue: 10, maxValue: 1 }] }),
    );
    expect(reversed.errors['activities.0.minValue']).toBe('The minimum is above the maximum');
  });

  it('points activity errors at the term the user sees even when empty terms before it are dropped', () => {
    const result = toCriteriaRow(
      draft('activitytypes', {
        activities: [emptyActivityTerm(), { ...emptyActivityTerm(), activityType: 'Ki', prefix: 'R', minValue: 5, maxValue: 2 }],
      }),
    );
    expect(Object.keys(result.errors)).toEqual(['activities.1.minValue']);
  });

  it('asks for an activity type when only a value was given', () => {
    const result = toCriteriaRow(draft('activitytypes', { activities: [{ ...emptyActivityTerm(), prefix: '<', minValue: 10 }] }));
    expect(result.errors['activities.0.activityType']).toBe('Choose an activity type');
  });

  it('sends only the first value for a comparison prefix and none without a prefix', () => {
    const result = toCriteriaRow(
      draft('activitytypes', {
        activities: [
          { activityType: 'IC50', activityUom: 'nM', prefix: '<=', minValue: 10, maxValue: 99 },
          { activityType: 'Ki', activityUom: '', prefix: null, minValue: 3, maxValue: null },
        ],
      }),
    );
    expect(result.row).toMatchObject({
      activities: [
        { activityType: 'IC50', activityUom: 'nM', prefix: '<=', minValue: 10, maxValue: null },
        { activityType: 'Ki', activityUom: null, prefix: null, minValue: null, maxValue: null },
      ],
    });
  });

  it('maps a bad patent year to the patent row the user typed it in', () => {
    const result = toCriteriaRow(draft('bibliography', { patents: [emptyPatent(), { countryCode: 'us', patentNo: '123', year: 1500 }] }));
    expect(Object.keys(result.errors)).toEqual(['patents.1.year']);
  });

  it('upper-cases patent country codes and sends a year range', () => {
    const result = toCriteriaRow(
      draft('bibliography', { patents: [{ countryCode: 'wo', patentNo: '2015001', year: null }], fromYear: 2010, toYear: 2015 }),
    );
    expect(result.row).toMatchObject({
      patents: [{ countryCode: 'WO', patentNo: '2015001', year: null }],
      yearRange: { fromYear: 2010, toYear: 2015 },
    });
    const reversed = toCriteriaRow(draft('bibliography', { fromYear: 2016, toYear: 2015 }));
    expect(reversed.errors['yearRange.fromYear']).toBe('The from-year is after the to-year');
  });

  it('sends picked company ids as ids and typed names as names', () => {
    const result = toCriteriaRow(
      draft('company', {
        companies: [
          { id: 4, label: 'Pfizer' },
          { id: 'Acme Bio', label: 'Acme Bio' },
        ],
      }),
    );
    expect(result.row).toMatchObject({ companyIds: [4], companyNames: ['Acme Bio'] });
  });

  it('sends the ids of every selected tree node with their labels', () => {
    const tree: RowDraft = {
      ...(newDraft('treeview', 'SourceOntologyTreeView') as DraftOf<'treeview'>),
      nodes: [
        { id: '10', label: 'Bacteria', ids: ['10'] },
        { id: '11', label: 'Fungi', ids: ['11'] },
      ],
    };
    expect(toCriteriaRow(tree).row).toMatchObject({
      selectedOption: 'treeview',
      tree: 'SourceOntologyTreeView',
      nodeIds: ['10', '11'],
      labels: ['Bacteria', 'Fungi'],
    });
  });

  it('asks for a degrader type when only ligases were given', () => {
    expect(toCriteriaRow(draft('degrader', { ligases: ['VHL'] })).errors).toEqual({ degraderTypes: 'Choose monovalent, bivalent or both' });
  });
});

describe('spec §5: a row enters the search only if it has a value', () => {
  const empties: RowDraft[] = [
    newDraft('structure'),
    newDraft('target'),
    newDraft('bibliography'),
    newDraft('company'),
    newDraft('degrader'),
    newDraft('clinicalphase'),
    newDraft('source'),
    newDraft('indication'),
    newDraft('activitytypes'),
    newDraft('assay'),
    newDraft('activitymechanism'),
    newDraft('compoundcategories'),
    newDraft('treeview', 'Target'),
  ];

  it.each(empties.map((row) => [row.selectedOption, row] as const))('leaves out an empty %s row without an error', (_, row) => {
    const result = toCriteriaRow(row);
    expect(result).toEqual({ row: null, errors: {}, empty: true });
    expect(rowHasValue(row)).toBe(false);
  });

  it('counts selections as values: bibliography data sources, degrader types, assay types', () => {
    expect(rowHasValue(draft('bibliography', { sources: ['P'] }))).toBe(true);
    expect(rowHasValue(draft('degrader', { degraderTypes: ['bivalent'] }))).toBe(true);
    expect(rowHasValue(draft('assay', { assayTypes: ['binding'] }))).toBe(true);
    expect(rowHasValue(draft('structure', { properties: { logpmax: 5 } }))).toBe(true);
  });

  it('does not count blank text as a value', () => {
    expect(rowHasValue(draft('structure', { value: '   ' }))).toBe(false);
    expect(rowHasValue(draft('clinicalphase', { phases: [' '] }))).toBe(false);
  });
});

describe('operators', () => {
  it('clears the last row’s operator and gives a former last row the default AND', () => {
    expect(clearLastOperator([{ operator: 'OR' as const }, { operator: null }, { operator: 'NOT' as const }])).toEqual([
      { operator: 'OR' },
      { operator: 'AND' },
      { operator: null },
    ]);
  });
});

describe('building the criteria', () => {
  it('skips empty rows, joins the rest and clears the operator of the last row sent', () => {
    const rows: RowDraft[] = [
      draft('clinicalphase', { phases: ['Phase II'], operator: 'OR' }),
      draft('structure', { operator: 'NOT' }),
      draft('activitymechanism', { mechanisms: ['Inhibitor'], operator: 'NOT' }),
      draft('company', { operator: 'AND' }),
    ];
    const built = buildCriteria(rows);
    expect(built.formError).toBeNull();
    expect(built.skipped).toEqual([rows[1]?.key, rows[3]?.key]);
    expect(built.criteria?.rows.map((row) => [row.selectedOption, row.operator])).toEqual([
      ['clinicalphase', 'OR'],
      ['activitymechanism', null],
    ]);
    expect(SearchCriteriaSchema.safeParse(built.criteria).success).toBe(true);
  });

  it('refuses to search with field errors and keeps every other row as it was', () => {
    const good = draft('activitymechanism', { mechanisms: ['Agonist'] });
    const bad = draft('structure', { properties: { psamin: 90, psamax: 10 } });
    const built = buildCriteria([good, bad]);
    expect(built.criteria).toBeNull();
    expect(built.formError).toBe('Correct the marked field before searching.');
    expect(built.rowErrors).toEqual({ [bad.key]: { 'properties.psamin': 'The minimum is above the maximum' } });
    expect(built.included).toEqual([good.key]);
  });

  it('says what to do when nothing can be searched', () => {
    expect(buildCriteria([]).formError).toBe('Add a search row first.');
    expect(buildCriteria([newDraft('target')]).formError).toBe('Enter a value in at least one row.');
  });

  it('round-trips through saved criteria', () => {
    const rows: RowDraft[] = [
      draft('structure', {
        inputType: 'smiles',
        value: 'CCO',
        category: 'similarity',
        similarityMin: 0.7,
        similarityMax: 1,
        operator: 'OR',
        strIds: ['5'],
      }),
      draft('target', { targets: [{ label: 'EGFR', targetCategories: ['gene'], operator: '|', displayValue: 'EGFR · P00533', ids: [3] }] }),
      draft('activitytypes', { activities: [{ activityType: 'IC50', activityUom: 'nM', prefix: 'R', minValue: 1, maxValue: 100 }] }),
    ];
    const first = buildCriteria(rows).criteria;
    expect(first).not.toBeNull();
    const again = buildCriteria(criteriaToDrafts(first!)).criteria;
    expect(again).toEqual(first);
  });
});

describe('digit ids', () => {
  it('keeps positive whole numbers once and reports the rest', () => {
    expect(digitIds(['1', '01', '2.5', '-3', '0', 'x', '1'])).toEqual({ ids: [1], invalid: ['2.5', '-3', '0', 'x'] });
  });
});
