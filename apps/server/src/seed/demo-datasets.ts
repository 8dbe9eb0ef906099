import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { csvText } from '@kb/contracts/csv';
import type { CsvValue } from '@kb/contracts/csv';
import type { DatasetType } from '@kb/contracts/datasets';
import type { Role } from '@kb/contracts/roles';
import type { Database } from '../db/schema.ts';
import { FileStore } from '../db/file-store.ts';

/**
 * Two small flat-file datasets on a first start, so the dashboard's Datasets section shows what a
 * subscriber would get (clearly labelled demo samples, written from the demo knowledge base).
 */

interface DemoDataset {
  type: DatasetType;
  fileName: string;
  description: string;
  roles: Role[];
  query: ReturnType<typeof sql<Record<string, unknown>>>;
}

const SAMPLE_ROWS = 5000;

const DEMO_DATASETS: DemoDataset[] = [
  {
    type: 'Structures',
    fileName: 'demo-structures-sample.csv',
    description: `Demo sample: the first ${SAMPLE_ROWS.toLocaleString('en-US')} structures with SMILES, InChIKey and properties.`,
    roles: ['FULL_USER', 'FLAT_FILE_ONLY'],
    query: sql`SELECT str_id, canonical_smiles AS smiles, inchikey, mol_formula, mol_weight, logp_calc, psa FROM structures ORDER BY str_id LIMIT ${SAMPLE_ROWS}`,
  },
  {
    type: 'Activities',
    fileName: 'demo-activities-sample.csv',
    description: `Demo sample: the first ${SAMPLE_ROWS.toLocaleString('en-US')} activities with their structure, type, value and unit.`,
    roles: ['FLAT_FILE_ONLY'],
    query: sql`SELECT act_id, str_id, std_activity_type, activity_value, standard_uom, micro_molarvalue FROM activities ORDER BY act_id LIMIT ${SAMPLE_ROWS}`,
  },
];

/** A database value as a CSV cell: numbers, text and booleans as they are (numerics arrive as text), anything else as text. */
const csvValue = (value: unknown): CsvValue =>
  value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? value
    : String(value);

/** Adds the demo datasets when there are none yet and the knowledge base has rows; answers how many. */
export async function seedDemoDatasets(db: Kysely<Database>): Promise<number> {
  const existing = await db.selectFrom('datasets').select('id').limit(1).execute();
  if (existing.length) return 0;
  const files = new FileStore(db);
  let added = 0;
  for (const dataset of DEMO_DATASETS) {
    const { rows } = await dataset.query.execute(db);
    if (!rows.length) continue;
    const header = Object.keys(rows[0]!);
    const writer = await files.create({
      purpose: 'dataset',
      ownerId: null,
      fileName: dataset.fileName,
      contentType: 'text/csv',
      expiresAt: null,
    });
    // The one cell rule of every CSV the product writes (contracts csv.ts): text a spreadsheet would run is neutralised.
    await writer.write(csvText([header, ...rows.map((row) => header.map((key) => csvValue(row[key])))]));
    await writer.finish();
    await db
      .insertInto('datasets')
      .values({
        dataset_type: dataset.type,
        description: dataset.description,
        roles: dataset.roles,
        file_id: writer.fileId,
        uploaded_by: null,
      })
      .execute();
    added += 1;
  }
  return added;
}
