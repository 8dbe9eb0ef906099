import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

// Row counts of a loaded knowledge base: what the demo seed and the ChEMBL import both report.
const COUNTED = ['structures', 'compounds', 'activities', 'assays', 'documents', 'clinical_compounds', 'targets'] as const;

export type KnowledgeBaseCounts = Record<(typeof COUNTED)[number], number>;

export async function countKnowledgeBase(db: Kysely<Database>): Promise<KnowledgeBaseCounts> {
  const entries = await Promise.all(
    COUNTED.map(async (table) => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return [table, Number(row.n)] as const;
    }),
  );
  return Object.fromEntries(entries) as KnowledgeBaseCounts;
}
