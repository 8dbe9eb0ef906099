import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DATABASES, openTestDatabase } from '../../../test/harness.ts';
import { seedLookups } from '../knowledge-base/lookup-vocabulary.ts';
import { fieldId } from './lookup-fields.ts';
import { refreshLookupTerms } from './lookup-refresh.ts';
import type { RefreshProgress } from './lookup-refresh.ts';

/** Columns and index definitions of the look-up tables in the current schema. */
async function tableShapes(db: Kysely<Database>) {
  const { rows: columns } = await sql`SELECT table_name, ordinal_position, column_name, data_type, is_nullable, collation_name
    FROM information_schema.columns WHERE table_schema = current_schema() AND table_name LIKE 'lookup\\_%'
    ORDER BY table_name, ordinal_position`.execute(db);
  const { rows: indexes } = await sql<{
    tablename: string;
    indexname: string;
    indexdef: string;
  }>`SELECT tablename, indexname, indexdef FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename LIKE 'lookup\\_%' ORDER BY indexname`.execute(db);
  const { rows: options } = await sql`SELECT relname, reloptions FROM pg_class
    WHERE relnamespace = current_schema()::regnamespace AND relname LIKE 'lookup\\_%' AND relkind = 'r' ORDER BY relname`.execute(db);
  return { columns, indexes, options };
}

async function contents(db: Kysely<Database>) {
  return {
    fields: await db.selectFrom('lookup_fields').selectAll().orderBy('field_id').execute(),
    entries: await db.selectFrom('lookup_entries').selectAll().orderBy('entry_id').execute(),
    terms: await db.selectFrom('lookup_terms').selectAll().orderBy('entry_id').orderBy('pos').orderBy('token').execute(),
    units: await db.selectFrom('lookup_units').selectAll().orderBy('activity_type').orderBy('unit').execute(),
  };
}

describe.each(DATABASES)('refreshLookupTerms on %s', (kind) => {
  it('builds the tables the migration creates, cuts values at word starts, and gives the same rows every time', async () => {
    const test = await openTestDatabase(kind);
    try {
      const db = test.handle.db;
      const migrated = await tableShapes(db);
      expect(migrated.indexes.map((i) => i.indexname)).toEqual([
        'lookup_entries_pkey',
        'lookup_fields_pkey',
        'lookup_terms_rank_idx',
        'lookup_terms_token_idx',
        'lookup_units_pkey',
        'lookup_units_type_idx',
      ]);

      await seedLookups(db);
      const target = await db
        .insertInto('targets')
        .values({
          name: 'Receptor tyrosine-protein kinase erbB-2',
          gene_symbol: 'ERBB2',
          uniprot_id: 'P04626',
          entrez_gene_id: 2064,
          pdb_ids: ['3PP0'],
          organism: 'Homo sapiens',
        })
        .returning('target_id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('target_synonyms')
        .values([
          { target_id: target.target_id, synonym: 'ERBB2', syn_type: 'gene symbol' },
          { target_id: target.target_id, synonym: 'HER2', syn_type: 'gene symbol other' },
        ])
        .execute();
      await db.insertInto('documents').values({ ref_type: 'patent', title: 'Kinase inhibitors', patent_no: 'WO2004000123' }).execute();

      const progress: RefreshProgress[] = [];
      const summary = await refreshLookupTerms(db, (p) => progress.push(p));
      expect(await tableShapes(db)).toEqual(migrated);
      expect(progress.map((p) => p.stepsDone)).toEqual(progress.map((_, i) => i));
      expect(progress.at(-1)).toMatchObject({ step: 'done', stepsDone: progress.at(-1)?.stepsTotal });
      expect(summary.entries).toBeGreaterThan(0);

      const tokens = async (kindName: 'target' | 'document', field: string) =>
        await db
          .selectFrom('lookup_terms')
          .select(['token', 'word', 'pos'])
          .where('field_id', '=', fieldId(kindName, field))
          .orderBy('pos')
          .execute();
      expect(await tokens('target', 'name')).toEqual([
        { token: 'receptor tyrosine-protein kinase erbb-2', word: false, pos: 1 },
        { token: 'tyrosine-protein kinase erbb-2', word: true, pos: 10 },
        { token: 'protein kinase erbb-2', word: true, pos: 19 },
        { token: 'kinase erbb-2', word: true, pos: 27 },
        { token: 'erbb-2', word: true, pos: 34 },
        { token: '2', word: true, pos: 39 },
      ]);
      // The gene-symbol synonym is the same value as the gene symbol: one entry; the other is a synonym.
      expect((await tokens('target', 'gene')).map((t) => t.token)).toEqual(['erbb2']);
      expect((await tokens('target', 'synonym')).map((t) => t.token)).toEqual(['her2']);
      expect((await tokens('document', 'patent')).map((t) => t.token)).toEqual(['wo2004000123', '2004000123']);

      const first = await contents(db);
      await refreshLookupTerms(db);
      expect(await contents(db)).toEqual(first);
      expect(await tableShapes(db)).toEqual(migrated);
    } finally {
      await test.close();
    }
  });
});
