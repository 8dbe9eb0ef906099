import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DatasetState, RebuildJob } from '@kb/contracts/superadmin';
import { ERROR_CODES } from '@kb/contracts/errors';
import type { Database } from '../../db/schema.ts';
import type { DatabaseKind } from '../../db/database.ts';
import { withDbPriority } from '../../db/db-priority.ts';
import { HttpError } from '../../http/errors.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { refreshLookupTerms } from '../lookups/lookup-refresh.ts';
import { refreshTreeCounts } from '../trees/tree-refresh.ts';

type Db = Kysely<Database>;

/** The main tables of the knowledge base, as the data-set tab counts them. */
const COUNTED = [
  'structures',
  'compounds',
  'activities',
  'assays',
  'documents',
  'targets',
  'clinical_compounds',
  'lookup_entries',
] as const;
/** Above this many rows (planner's estimate) a server's table is not counted exactly: count(*) reads it all. */
const EXACT_COUNT_UP_TO = 1_000_000;

async function tableCounts(db: Db, kind: DatabaseKind): Promise<DatasetState['counts']> {
  const estimates = new Map<string, number>();
  if (kind === 'postgres') {
    const { rows } = await sql<{ relname: string; n: number }>`SELECT c.relname, c.reltuples::float8 AS n FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY(${[...COUNTED]}::text[])`.execute(db);
    for (const row of rows) estimates.set(row.relname, Number(row.n));
  }
  const out: DatasetState['counts'] = [];
  for (const table of COUNTED) {
    const estimate = estimates.get(table) ?? -1;
    if (estimate > EXACT_COUNT_UP_TO) {
      out.push({ table, rows: Math.round(estimate), estimated: true });
      continue;
    }
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(db);
    out.push({ table, rows: rows[0]?.n ?? 0, estimated: false });
  }
  return out;
}

/** Rebuilds the data derived from the knowledge base, in the background, one at a time per server. */
export class DerivedDataRebuild {
  private job: RebuildJob = {
    state: 'idle',
    step: null,
    percent: 0,
    startedAt: null,
    finishedAt: null,
    startedBy: null,
    log: [],
    error: null,
  };
  private running: Promise<void> | null = null;
  /** Who is starting a rebuild (its audit row is being written), else null. */
  private starting: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly engine: ChemEngine,
    /** Computes missing stored fingerprints (the knowledge-base module's RDKit pool; wired in app.ts). */
    private readonly fillFingerprints: ((onProgress: (done: number, total: number) => void) => Promise<number>) | null,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  status(): RebuildJob {
    return { ...this.job, log: [...this.job.log] };
  }

  /**
   * Starts a rebuild; 409 while one runs or is being started. `beforeStart` runs first, with the
   * job's start time (the audit row): when it fails, nothing starts and its error is the answer.
   */
  async start(startedBy: string, beforeStart: (startedAt: string) => Promise<void> = async () => undefined): Promise<RebuildJob> {
    if (this.running || this.starting) {
      const by = this.running ? this.job.startedBy : this.starting;
      const step = this.running ? (this.job.step ?? 'starting') : 'starting';
      throw new HttpError(409, {
        message: `A rebuild started by ${by ?? 'someone'} is still running (${step}). Wait for it to finish.`,
        code: ERROR_CODES.conflict,
      });
    }
    // Claimed before the first await: a second request meanwhile gets the 409 above.
    this.starting = startedBy;
    const startedAt = new Date().toISOString();
    try {
      await beforeStart(startedAt);
    } finally {
      this.starting = null;
    }
    this.job = { state: 'running', step: 'Starting', percent: 0, startedAt, finishedAt: null, startedBy, log: [], error: null };
    this.running = withDbPriority('bulk', () => this.run())
      .then(() => {
        this.job = { ...this.job, state: 'done', step: null, percent: 100, finishedAt: new Date().toISOString() };
      })
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.log(`derived-data rebuild failed: ${message}`);
        this.job = { ...this.job, state: 'failed', finishedAt: new Date().toISOString(), error: message };
      })
      .finally(() => {
        this.running = null;
      });
    return this.status();
  }

  /** Waits for a running rebuild (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
  }

  private stage(step: string, from: number, to: number) {
    this.job = { ...this.job, step, percent: from };
    return (fraction: number) => {
      this.job = { ...this.job, percent: Math.round(from + (to - from) * Math.min(1, Math.max(0, fraction))) };
    };
  }

  private done(line: string): void {
    this.job = { ...this.job, log: [...this.job.log, line] };
  }

  private async run(): Promise<void> {
    const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(1);
    let started = performance.now();
    this.stage('Planner statistics', 0, 5);
    // Fresh statistics first: the set-based rebuilds below plan badly without them after a load.
    await sql`ANALYZE`.execute(this.db);
    this.done(`Planner statistics refreshed in ${seconds(started)} s.`);

    started = performance.now();
    const lookups = this.stage('Autocomplete terms', 5, 50);
    const terms = await refreshLookupTerms(this.db, (p) => lookups(p.stepsDone / p.stepsTotal));
    this.done(`Autocomplete terms rebuilt: ${terms.entries.toLocaleString('en-GB')} entries in ${seconds(started)} s.`);

    started = performance.now();
    const trees = this.stage('Tree counts', 50, 80);
    const nodes = await refreshTreeCounts(this.db, (p) => trees(p.step / p.steps));
    this.done(`Tree counts rebuilt: ${nodes.nodes.toLocaleString('en-GB')} nodes in ${seconds(started)} s.`);

    started = performance.now();
    const fingerprints = this.stage('Structure fingerprints', 80, 95);
    if (this.fillFingerprints) {
      const filled = await this.fillFingerprints((done, total) => fingerprints(total ? done / total : 1));
      this.done(
        filled === 0
          ? 'Every readable structure has its fingerprints.'
          : `Fingerprints computed for ${filled.toLocaleString('en-GB')} structures in ${seconds(started)} s.`,
      );
    }

    this.stage('Structure index', 95, 100);
    if (this.engine.status().state === 'idle') {
      this.done('Structure index: not loaded on this server yet; it loads at the first structure search.');
    } else {
      started = performance.now();
      await this.engine.refresh();
      this.done(`Structure index refreshed: ${this.engine.status().loaded.toLocaleString('en-GB')} structures in ${seconds(started)} s.`);
    }
  }
}

/** What the data-set tab shows. */
export async function datasetState(db: Db, kind: DatabaseKind, engine: ChemEngine, rebuild: DerivedDataRebuild): Promise<DatasetState> {
  const [label, sources, counts, lastLoad, index, scaffolds, trees] = await Promise.all([
    db.selectFrom('app_settings').select('value').where('key', '=', 'dataset_label').executeTakeFirst(),
    db.selectFrom('data_sources').select(['name', 'is_demo']).orderBy('name').limit(50).execute(),
    tableCounts(db, kind),
    db
      .selectFrom('kb_load_checkpoints')
      .select((eb) => eb.fn.max('updated_at').as('at'))
      .executeTakeFirst(),
    db
      .selectFrom('structures')
      .select([
        sql<number>`count(*)::int`.as('n'),
        sql<number>`count(morgan_fp)::int`.as('morgan'),
        sql<number>`count(pattern_fp)::int`.as('pattern'),
      ])
      .executeTakeFirstOrThrow(),
    db.selectFrom('structure_scaffolds').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('tree_refresh_state').select('refreshed_at').executeTakeFirst(),
  ]);
  const engineStatus = engine.status();
  const structures = index.n;
  const lookupEntries = counts.find((c) => c.table === 'lookup_entries')?.rows ?? 0;
  const at = lastLoad?.at as Date | string | null | undefined;
  return {
    label: label?.value ?? (structures > 0 ? 'loaded' : 'empty'),
    sources: sources.map((s) => ({ name: s.name, isDemo: s.is_demo })),
    counts: counts.filter((c) => c.table !== 'lookup_entries'),
    lastLoadAt: at ? new Date(at).toISOString() : null,
    structureIndex: {
      structures,
      withMorganFingerprint: index.morgan,
      withPatternFingerprint: index.pattern,
      withScaffold: scaffolds.n,
      engine: { state: engineStatus.state, loaded: engineStatus.loaded, total: engineStatus.total },
    },
    treesRefreshedAt: trees?.refreshed_at.toISOString() ?? null,
    lookupEntries,
    rebuild: rebuild.status(),
  };
}
