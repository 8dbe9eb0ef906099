import { describe, expect, it } from 'vitest';
import { SearchRowSchema } from '@kb/contracts/search';
import type { SearchRowInput } from '@kb/contracts/search';
import { compileRow } from '../row-compiler.ts';
import type { CompileContext } from '../row-compiler.ts';
import { rowSetQueries } from './bitmap-counts.ts';

/**
 * Which rows the bitmap engine answers from memory and which it reads from the database
 * (bitmap-counts.ts `rowSetQueries`): the counts are compared with SQL in search-corpus.api.test.ts;
 * this says which path each kind of row takes, so a row that quietly fell back to a database read
 * (seconds at L) fails here.
 */
const ctx: CompileContext = {
  structures: { resolve: () => Promise.reject(new Error('no structure rows here')), writeHits: async () => undefined },
  // Target terms resolve to their own ids here (the resolver is tested in modules/targets).
  targets: (terms) => Promise.resolve(terms.flatMap((term) => term.ids ?? [])),
  unitFactors: new Map([['nM', 0.001]]),
};

async function activityRead(input: SearchRowInput): Promise<unknown> {
  const row = await compileRow(SearchRowSchema.parse(input), 0, ctx);
  return rowSetQueries(row)[0];
}

describe('rows read in memory or from the database', () => {
  it('an assay row on types alone, activity types, mechanisms and degraders read nothing at the activity level', async () => {
    expect(await activityRead({ selectedOption: 'assay', assayTypes: ['binding', 'functional'] })).toBeNull();
    expect(await activityRead({ selectedOption: 'activitytypes', activities: [{ activityType: 'IC50' }] })).toBeNull();
    expect(await activityRead({ selectedOption: 'activitymechanism', mechanisms: ['AGONIST'] })).toBeNull();
    expect(await activityRead({ selectedOption: 'degrader', degraderTypes: ['bivalent'] })).toBeNull();
  });

  it('an assay row with a method or assay ids still reads its few assays', async () => {
    expect(
      await activityRead({ selectedOption: 'assay', assayTypes: ['toxicity'], methodNames: ['Automated patch clamp'] }),
    ).not.toBeNull();
    expect(await activityRead({ selectedOption: 'assay', assayIds: [1, 2] })).not.toBeNull();
  });
});
