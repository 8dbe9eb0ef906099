import { sql } from 'kysely';
import type { Db } from './step.ts';

/** What shows that a knowledge base holds the synthetic demo data set. */
export interface DemoDataFound {
  /** `dataset_label` when it names a demo set (`demo-S` ...), else null. */
  datasetLabel: string | null;
  /** Compounds whose data source is the demo source (catches an unfinished seed, or a mix). */
  demoCompounds: number;
  /** Demo seed jobs with checkpoints (`seed:S:42` ...), finished or not. */
  seedJobs: string[];
}

/**
 * Looks for synthetic demo data. Three signs, because the label alone misses cases: a seed that was
 * interrupted has not set `dataset_label` yet, and an import allowed on top of demo data replaces
 * the label while the demo rows stay. Returns null when none is found.
 */
export async function findDemoData(db: Db): Promise<DemoDataFound | null> {
  const label = await db.selectFrom('app_settings').select('value').where('key', '=', 'dataset_label').executeTakeFirst();
  const datasetLabel = label?.value.startsWith('demo-') ? label.value : null;
  const compounds = await db
    .selectFrom('compounds')
    .innerJoin('data_sources', 'data_sources.data_source_id', 'compounds.data_source_id')
    .where('data_sources.is_demo', '=', true)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  const jobs = await db.selectFrom('kb_load_checkpoints').select('job').distinct().where('job', 'like', 'seed:%').orderBy('job').execute();
  const found: DemoDataFound = { datasetLabel, demoCompounds: Number(compounds.n), seedJobs: jobs.map((j) => j.job) };
  return found.datasetLabel || found.demoCompounds > 0 || found.seedJobs.length > 0 ? found : null;
}

/** The CLI's refusal text: what was found, why it matters, and the two ways forward. */
export function mixedDataMessage(found: DemoDataFound): string {
  const signs = [
    ...(found.datasetLabel ? [`dataset label "${found.datasetLabel}"`] : []),
    ...(found.demoCompounds > 0 ? [`${found.demoCompounds.toLocaleString('en')} demo compounds`] : []),
    ...(found.seedJobs.length > 0 ? [`demo seed run${found.seedJobs.length > 1 ? 's' : ''} ${found.seedJobs.join(', ')}`] : []),
  ];
  return (
    `Refused: this database already holds synthetic demo data (${signs.join('; ')}). Importing ChEMBL into it would ` +
    'mix synthetic and real records in every search. Import into an empty database (another DATA_DIR or --database-url), ' +
    'or pass --allow-mixed to import anyway.'
  );
}
