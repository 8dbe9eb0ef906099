import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_DATABASE, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { ChemReference } from '../../../test/chem-reference.ts';
import { ChemQueryRefused } from './chem-engine.ts';
import type { ChemQuery, EngineStatus } from './chem-engine.ts';
import { RdkitChemEngine, TRAP_MESSAGE } from './rdkit-engine.ts';

/*
 * Recovery (issue: one structure query broke structure search for everyone). A worker whose
 * RDKit traps, or whose request or search step runs past its time, is replaced: the culprit gets
 * a 400-style ChemQueryRefused, a search of "another user" running on that worker at the time is
 * finished on the replacement with the right hits (re-queued, not failed), status goes through
 * `recovering` back to `ready`, and the next searches answer as before. Real RDKit, real database;
 * the traps come from the engine's test hooks (constructor option, unreachable over HTTP) and,
 * with the query limits lifted, from RDKit itself.
 */
const byNumber = (a: number, b: number) => a - b;
const LONG: ChemQuery = { kind: 'smarts', text: '*~*~*~*~*~*~*~*~*~*~*~*', desalt: true };
const REQUEST_LIMIT_MS = 2_000;
const STEP_LIMIT_MS = 3_000;

describe.each(ONE_DATABASE)('chemistry engine recovery (%s)', (kind) => {
  let database: TestDatabase;
  let engine: RdkitChemEngine;
  let reference: ChemReference;
  let expectedLong: number[];
  const logs: string[] = [];
  let states: EngineStatus['state'][] = [];
  let watcher: NodeJS.Timeout | null = null;

  const watchStates = () => {
    states = [];
    watcher = setInterval(() => {
      const state = engine.status().state;
      if (states.at(-1) !== state) states.push(state);
    }, 2);
  };
  const stopWatching = () => {
    if (watcher) clearInterval(watcher);
    watcher = null;
  };
  const settled = async () => {
    for (let i = 0; i < 3000 && engine.status().state !== 'ready'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    stopWatching();
    const last = engine.status().state;
    if (states.at(-1) !== last) states.push(last);
  };
  /** A search of another user, under way on every worker (some shards searched) when it resolves. */
  const runningSearch = async () => {
    let searched = 0;
    const search = engine.substructure(LONG, { onProgress: (p) => (searched = p.searched) });
    for (let i = 0; i < 2000 && searched === 0; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    return search;
  };
  const expectAsBefore = async () => {
    const hits = await engine.substructure({ kind: 'smiles', text: 'c1ccncc1', desalt: true });
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'c1ccncc1'));
    const similar = await engine.similarity({ kind: 'smiles', text: reference.structures[7]!.smiles, desalt: true }, { min: 0.5, max: 1 });
    expect(Array.from(similar.ids).sort(byNumber)).toEqual(
      [...reference.similarity(reference.structures[7]!.smiles, 0.5, 1).keys()].sort(byNumber),
    );
    expect(engine.status()).toMatchObject({ state: 'ready', loaded: reference.structures.length, workers: 2, error: null });
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind, { demoChunks: 1 });
    engine = new RdkitChemEngine(database.handle.db, {
      workers: 2,
      shardSize: 32,
      testHooks: true,
      requestTimeLimitMs: REQUEST_LIMIT_MS,
      stepTimeLimitMs: STEP_LIMIT_MS,
      log: (message) => logs.push(message),
    });
    engine.start();
    await engine.ready();
    reference = await ChemReference.load(database.handle.db);
    expectedLong = reference.substructure('smarts', LONG.text);
    expect(expectedLong.length).toBeGreaterThan(100);
  }, 180_000);
  afterAll(async () => {
    stopWatching();
    reference?.close();
    await engine?.close();
    await database?.close();
  });

  it("refuses the request that trapped, finishes another user's running search on the replacement, and is ready again", async () => {
    const other = await runningSearch();
    watchStates();
    const lostBefore = logs.filter((l) => l.includes('lost')).length;
    await expect(engine.testHook('trap', 'request')).rejects.toThrow(TRAP_MESSAGE);
    const hits = await other;
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(expectedLong);
    expect(hits.complete).toBe(true);
    await settled();
    expect(states).toContain('recovering');
    expect(states.at(-1)).toBe('ready');
    // The culprit is never sent again: exactly one worker was replaced.
    expect(logs.filter((l) => l.includes('lost')).length - lostBefore).toBe(1);
    await expectAsBefore();
  });

  it('fails the search whose step trapped, not the other search running beside it', async () => {
    const other = await runningSearch();
    watchStates();
    await expect(engine.testHook('trap', 'search')).rejects.toThrow(TRAP_MESSAGE);
    const hits = await other;
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(expectedLong);
    await settled();
    expect(states).toContain('recovering');
    await expectAsBefore();
  });

  it('stops a request that runs past its time from the main thread (watchdog) and replaces the worker', async () => {
    const other = await runningSearch();
    watchStates();
    const started = performance.now();
    const spin = engine.testHook('spin', 'request');
    await expect(spin).rejects.toBeInstanceOf(ChemQueryRefused);
    await expect(spin).rejects.toThrow(/RDKit took longer than 2 s on this query and was stopped; simplify it\./);
    expect(performance.now() - started).toBeLessThan(REQUEST_LIMIT_MS + 3_000);
    const hits = await other;
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(expectedLong);
    await settled();
    expect(states).toContain('recovering');
    await expectAsBefore();
  });

  it('stops a search step that runs past its time, with the search-limit style message', async () => {
    const other = await runningSearch();
    const started = performance.now();
    await expect(engine.testHook('spin', 'search')).rejects.toThrow(
      /structure search was stopped on one part of the index: RDKit spent more than 3 s on 32 structures[\s\S]*too generic or too complex/,
    );
    expect(performance.now() - started).toBeLessThan(STEP_LIMIT_MS + 3_000);
    const hits = await other;
    expect(Array.from(hits.ids).sort(byNumber)).toEqual(expectedLong);
    await settled();
    await expectAsBefore();
  });

  it('survives real RDKit traps and hangs when the query limits are lifted (C x 1000 traps, C x 700 hangs)', async () => {
    const unguarded = new RdkitChemEngine(database.handle.db, {
      workers: 1,
      shardSize: 256,
      requestTimeLimitMs: REQUEST_LIMIT_MS,
      queryLimits: { atoms: 10_000, smilesLength: 10_000 },
    });
    try {
      unguarded.start();
      await unguarded.ready();
      const trap = unguarded.describe({ kind: 'smiles', text: 'C'.repeat(1000), desalt: true });
      await expect(trap).rejects.toThrow(TRAP_MESSAGE);
      const started = performance.now();
      await expect(unguarded.describe({ kind: 'smiles', text: 'C'.repeat(700), desalt: true })).rejects.toThrow(
        /took longer than 2 s|could not process/,
      );
      expect(performance.now() - started).toBeLessThan(REQUEST_LIMIT_MS + 5_000);
      const hits = await unguarded.substructure({ kind: 'smiles', text: 'c1ccncc1', desalt: true });
      expect(Array.from(hits.ids).sort(byNumber)).toEqual(reference.substructure('smiles', 'c1ccncc1'));
      expect(unguarded.status()).toMatchObject({ state: 'ready', loaded: reference.structures.length, workers: 1 });
    } finally {
      await unguarded.close();
    }
  });

  it('refuses over-limit queries before RDKit sees them', async () => {
    const lost = logs.filter((l) => l.includes('lost')).length;
    await expect(engine.describe({ kind: 'smiles', text: 'C'.repeat(1000), desalt: true })).rejects.toThrow(
      'The query has 1,000 atoms; a structure query may have at most 250.',
    );
    await expect(engine.substructure({ kind: 'smarts', text: `${'[$('.repeat(100)}C${')]'.repeat(100)}`, desalt: true })).rejects.toThrow(
      /nests recursive SMARTS \$\(…\) 100 deep/,
    );
    await expect(
      engine.depict(
        { kind: 'smiles', text: 'CCO' },
        { width: 100, height: 100, highlight: { kind: 'smarts', text: `${'[$('.repeat(100)}C${')]'.repeat(100)}` } },
      ),
    ).rejects.toThrow(/a highlight may nest them at most 4 deep/);
    await expect(engine.depict({ kind: 'smiles', text: 'C'.repeat(300) }, { width: 100, height: 100 })).rejects.toThrow(
      /has 300 atoms; a structure query may have at most 250/,
    );
    // A stored structure may be bigger (looser limits), still bounded.
    await expect(engine.depict({ kind: 'smiles', text: 'C'.repeat(300) }, { width: 100, height: 100, stored: true })).resolves.toMatch(
      /<svg/,
    );
    await expect(engine.depict({ kind: 'smiles', text: 'C'.repeat(1000) }, { width: 100, height: 100, stored: true })).rejects.toThrow(
      /a drawn structure may have at most 400/,
    );
    expect(logs.filter((l) => l.includes('lost')).length).toBe(lost);
  });
});
