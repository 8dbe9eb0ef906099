/**
 * Measures where RDKit (MinimalLib in a worker thread, as the engine runs it) slows down, traps or
 * hangs on growing pathological queries, and how real structures measure against QUERY_LIMITS.
 * The figures in README.md "Query limits" come from this script:
 *
 *   npx tsx apps/server/src/modules/chemistry/measure-limits.ts [family ...]
 *
 * Each input is described, searched as a substructure over a 2,000-structure library (ChEMBL
 * subset when ../shared/data is present) and drawn, in a fresh worker after any failure; a call
 * running past 20 s is stopped from outside (terminate), as the engine's watchdog does.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { WorkerThread } from '../../workers/worker-thread.ts';
import { FP_BYTES } from './fingerprint.mjs';
import { emptySlices } from './bit-slices.mjs';
import { QUERY_LIMITS, measureLineNotation } from './query-limits.ts';

const WORKER_URL = new URL('./chem-worker.mjs', import.meta.url);
const CHEMBL = new URL('../../../../../../shared/data/chembl-subset/chembl_subset.db', import.meta.url);
const HANG_MS = 20_000;

function chemblSmiles(): string[] {
  if (!fs.existsSync(CHEMBL)) return [];
  const require = createRequire(import.meta.url);
  const Sqlite = require('better-sqlite3') as new (
    path: string,
    options: object,
  ) => { prepare(sql: string): { pluck(): { all(): string[] } }; close(): void };
  const db = new Sqlite(CHEMBL.pathname, { readonly: true });
  try {
    return db.prepare('SELECT canonical_smiles FROM compound_structures WHERE canonical_smiles IS NOT NULL').pluck().all();
  } finally {
    db.close();
  }
}

type Outcome = { ms: number; result: 'ok' | 'refused' | 'error' | 'hang'; detail?: string };

type Message = Record<string, unknown>;

class Probe {
  private thread: WorkerThread<Message, Message> | null = null;
  constructor(private readonly library: string[]) {}

  private async fresh(): Promise<WorkerThread<Message, Message>> {
    if (this.thread) return this.thread;
    const thread = new WorkerThread<Message, Message>({
      url: WORKER_URL,
      name: 'chemistry worker',
      idKey: 'requestId',
      isReady: (m) => m.type === 'ready',
      // Requests answer with `reply` (or `trap`, RDKit's own text, just before the worker exits);
      // a search (its id is its jobId) ends with `done` or `failed`.
      reply: (m) =>
        m.type === 'reply' || m.type === 'trap'
          ? { id: m.requestId as number, value: m }
          : m.type === 'done' || m.type === 'failed'
            ? { id: m.jobId as number, value: m }
            : null,
    });
    await thread.ready;
    const n = this.library.length;
    const shard = {
      type: 'addShard',
      shardId: 0,
      count: n,
      ids: Float64Array.from(this.library.keys()),
      pop: new Uint16Array(n),
      morgan: emptySlices(n),
      smiles: this.library,
      pattern: new Uint8Array(n * FP_BYTES),
      hasPattern: new Uint8Array(n),
    };
    await thread.request(shard);
    this.thread = thread;
    return thread;
  }

  async run(what: 'describe' | 'substructure' | 'depict', kind: string, text: string): Promise<Outcome> {
    const thread = await this.fresh();
    const message =
      what === 'describe'
        ? { type: 'describe', query: { kind, text, desalt: false } }
        : what === 'depict'
          ? { type: 'depict', kind, text, width: 300, height: 200, highlight: null }
          : { type: 'substructure', query: { kind, text, desalt: false }, limit: 0 };
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ ms: HANG_MS, result: 'hang' }), HANG_MS);
    });
    const answer = thread.request<Message>(message, { idKey: what === 'substructure' ? 'jobId' : 'requestId' }).then(
      (m): Outcome => {
        const ms = performance.now() - started;
        const result = m.result as { ok?: boolean; error?: string; internal?: boolean } | undefined;
        const error = (m.error as string | undefined) ?? (result && result.ok === false ? result.error : undefined);
        if (!error) return { ms, result: 'ok' };
        const broken = /RDKit failed|RuntimeError|trap|out of bounds|signature|Exception|abort|stack/i.test(error) || result?.internal;
        return { ms, result: broken ? 'error' : 'refused', detail: error.split('\n')[0]!.slice(0, 90) };
      },
      (error: Error): Outcome => ({ ms: performance.now() - started, result: 'error', detail: error.message }),
    );
    const outcome = await Promise.race([answer, hang]);
    clearTimeout(timer);
    if (outcome.result === 'error' || outcome.result === 'hang') await this.reset();
    return outcome;
  }

  async reset(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.close();
  }
}

const families: Record<string, { kind: 'smiles' | 'smarts'; sizes: number[]; make: (n: number) => string }> = {
  chain: { kind: 'smiles', sizes: [100, 200, 250, 300, 400, 500, 550, 600, 700, 1000], make: (n) => 'C'.repeat(n) },
  ring: { kind: 'smiles', sizes: [100, 250, 400, 500, 600], make: (n) => `C1${'C'.repeat(n - 2)}C1` },
  aromaticChain: { kind: 'smiles', sizes: [50, 100, 150, 200], make: (n) => `c1ccc(cc1)${'c1ccc(cc1)'.repeat(n - 2)}c1ccccc1` },
  branch: { kind: 'smiles', sizes: [16, 32, 64, 128, 250, 400], make: (n) => `${'C('.repeat(n)}C${')'.repeat(n)}` },
  stereo: { kind: 'smiles', sizes: [16, 32, 64, 100, 128], make: (n) => `C${'[C@H](O)'.repeat(n)}C` },
  ringClosures: {
    kind: 'smiles',
    sizes: [50, 100, 200, 300],
    make: (n) => Array.from({ length: n }, (_, i) => `C%${10 + (i % 89)}CC%${10 + (i % 89)}`).join(''),
  },
  recursive: { kind: 'smarts', sizes: [2, 3, 4, 5, 6, 8, 10, 20, 40, 60, 80, 100], make: (n) => `${'[$('.repeat(n)}C${')]'.repeat(n)}` },
  recursiveWide: {
    kind: 'smarts',
    sizes: [8, 16, 32, 64, 128],
    make: (n) => `[${Array.from({ length: n }, (_, i) => `$(C${'C'.repeat(i % 5)}O)`).join(',')}]`,
  },
  pathSmarts: { kind: 'smarts', sizes: [16, 24, 32, 48, 64, 100, 250], make: (n) => Array.from({ length: n }, () => '*').join('~') },
  peptide: { kind: 'smiles', sizes: [10, 20, 30, 40], make: (n) => `N${'[C@@H](Cc1ccccc1)C(=O)N'.repeat(n)}CC(=O)O` },
};

async function main(): Promise<void> {
  const real = chemblSmiles();
  if (real.length) {
    // How real structures measure: the limits must sit far above these.
    const stats = real.map(measureLineNotation);
    const max = (key: keyof ReturnType<typeof measureLineNotation>) => Math.max(...stats.map((s) => s[key]));
    const pct = (key: keyof ReturnType<typeof measureLineNotation>, p: number) =>
      stats.map((s) => s[key]).sort((a, b) => a - b)[Math.floor((stats.length - 1) * p)];
    for (const key of ['length', 'atoms', 'branchDepth', 'ringClosures', 'stereoCentres'] as const) {
      console.log(`ChEMBL ${real.length} structures: ${key} p99 ${pct(key, 0.99)}, p99.9 ${pct(key, 0.999)}, max ${max(key)}`);
    }
    const over = real.filter((s) => {
      const m = measureLineNotation(s);
      return (
        m.atoms > QUERY_LIMITS.atoms ||
        m.length > QUERY_LIMITS.smilesLength ||
        m.branchDepth > QUERY_LIMITS.branchDepth ||
        m.ringClosures > QUERY_LIMITS.ringClosures ||
        m.stereoCentres > QUERY_LIMITS.stereoCentres
      );
    });
    console.log(`ChEMBL structures over a query limit: ${over.length}`);
  }
  const library = (
    real.length ? real.filter((_, i) => i % Math.max(1, Math.floor(real.length / 2000)) === 0) : ['c1ccccc1CCN', 'CC(=O)Oc1ccccc1C(=O)O']
  ).slice(0, 2000);
  const probe = new Probe(library);
  const only = process.argv.slice(2);
  for (const [name, family] of Object.entries(families)) {
    if (only.length && !only.includes(name)) continue;
    for (const n of family.sizes) {
      const text = family.make(n);
      const cells: string[] = [];
      for (const what of ['describe', 'substructure', 'depict'] as const) {
        const o = await probe.run(what, family.kind, text);
        cells.push(`${what} ${o.result} ${Math.round(o.ms)} ms${o.detail ? ` (${o.detail})` : ''}`);
      }
      console.log(`${name} n=${n} (${text.length} chars): ${cells.join(' | ')}`);
    }
  }
  await probe.reset();
}

await main();
