import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { ONE_DATABASE, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { ChemReference } from '../../../test/chem-reference.ts';
import { corpus, encode, recursive } from './abuse-corpus.test-support.ts';
import type { Abuse } from './abuse-corpus.test-support.ts';

/*
 * Pathological structure input through the real HTTP API (issue: one query broke structure
 * search for everyone, another froze it). Every input of the corpus goes through the structure
 * preview, the depiction and a structure-search count: each answers 400 with a message, or 200
 * within its time limit. Normal searches and a depiction answer the same before and after, and
 * the engine is `ready` at the end. Real RDKit, real database, both databases.
 */
const PREVIEW_LIMIT_MS = 20_000;
const SEARCH_LIMIT_S = 30;
const DEPICT_LIMIT_MS = 10_000;
/** Slack for a shared 2-core machine (another test file may run beside this one). */
const MARGIN_MS = 8_000;

describe.each(ONE_DATABASE)('pathological structure input through the API on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let reference: ChemReference;
  const timings: { name: string; call: string; ms: number; status: number }[] = [];
  const structureRow = (structure: Record<string, unknown>): SearchCriteriaInput => ({
    rows: [{ selectedOption: 'structure', structure: { feature: 'desalted', ...structure } } as SearchCriteriaInput['rows'][number]],
  });
  const post = (url: string, payload: unknown) => t.call({ method: 'POST', url, headers: authHeaders(me), payload: payload as object });
  const get = (url: string) => t.call({ method: 'GET', url, headers: authHeaders(me) });

  /** A normal substructure count, a similarity count and a depiction: what must not change. */
  const normalAnswers = async () => {
    const sub = await post('/api/guidedsearch/count', {
      searchcriteria: structureRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' }),
    });
    const sim = await post('/api/guidedsearch/count', {
      searchcriteria: structureRow({
        inputType: 'smiles',
        value: reference.structures[10]!.smiles,
        category: 'similarity',
        similarityMin: 0.5,
      }),
    });
    // A selective preview: complete, so its hits and count do not depend on timing.
    const preview = await post('/api/guidedsearch/structures/by/smilessmarts', {
      inputType: 'smiles',
      value: 'O=C1NC(=O)SC1',
      category: 'substructure',
      limit: 100,
    });
    const picture = await get(`/api/chemistry/depiction?strId=${reference.structures[3]!.strId}&w=233&h=177`);
    for (const answer of [sub, sim, preview, picture]) expect(answer.statusCode, answer.body).toBe(200);
    expect(preview.data.complete).toBe(true);
    const hits = [...(preview.data.hits as { strId: number }[])].sort((a, b) => a.strId - b.strId);
    return { sub: sub.data, sim: sim.data, preview: { ...preview.data, hits, elapsedMs: 0 }, picture: picture.body };
  };

  beforeAll(async () => {
    t = await startTestApp(
      kind,
      { CHEM_SHARD_SIZE: '128', CHEM_WORKERS: '2', STRUCTURE_SEARCH_TIME_LIMIT_SECONDS: String(SEARCH_LIMIT_S) },
      { demoChunks: 1 },
    );
    me = await t.login(demoEmailForRole('FULL_USER'));
    reference = await ChemReference.load(t.database.db);
  }, 180_000);
  afterAll(async () => {
    reference?.close();
    await t?.close();
  });

  it('has a corpus of at least 100 named pathological inputs', () => {
    const list = corpus();
    expect(list.length).toBeGreaterThanOrEqual(100);
    expect(new Set(list.map((a) => a.name)).size).toBe(list.length);
  });

  it('answers every input with 400 and a message, or 200 in time, on every route; normal answers do not change', async () => {
    const before = await normalAnswers();
    const check = (
      entry: Abuse,
      call: string,
      answer: { statusCode: number; data: Record<string, unknown>; body: string },
      ms: number,
      limitMs: number,
    ) => {
      timings.push({ name: entry.name, call, ms, status: answer.statusCode });
      const what = `${entry.name} → ${call}: ${answer.statusCode} ${answer.body.slice(0, 200)}`;
      const allowed = entry.oversize ? [200, 400, 413] : [200, 400];
      expect(allowed, what).toContain(answer.statusCode);
      if (answer.statusCode !== 200) expect(typeof answer.data.message === 'string' && answer.data.message.length > 10, what).toBe(true);
      expect(ms, what).toBeLessThan(limitMs + MARGIN_MS);
    };
    for (const entry of corpus()) {
      let started = performance.now();
      const preview = await post('/api/guidedsearch/structures/by/smilessmarts', {
        inputType: entry.kind,
        value: entry.text,
        category: 'substructure',
        limit: 12,
      });
      check(entry, 'preview', preview, performance.now() - started, PREVIEW_LIMIT_MS);

      started = performance.now();
      const param = entry.kind === 'molfile' ? 'molfile' : entry.kind;
      const picture = await get(`/api/chemistry/depiction?${param}=${encode(entry.text)}&w=300&h=200`);
      check(entry, 'depiction', picture, performance.now() - started, DEPICT_LIMIT_MS);
      if (picture.statusCode === 200) expect(picture.body).toMatch(/<svg[\s\S]*<\/svg>/);

      started = performance.now();
      const count = await post('/api/guidedsearch/count', {
        searchcriteria: structureRow({ inputType: entry.kind, value: entry.text, category: 'substructure' }),
      });
      check(entry, 'search count', count, performance.now() - started, SEARCH_LIMIT_S * 1000);
    }
    const after = await normalAnswers();
    expect(after).toEqual(before);
    // A fresh drawing (not the server's cache) by whatever workers there are now equals the first.
    const fresh = await get(`/api/chemistry/depiction?strId=${reference.structures[3]!.strId}&w=234&h=177`);
    expect(fresh.body.match(/<path/g)?.length).toBe(before.picture.match(/<path/g)?.length);
    const status = await get('/api/chemistry/status');
    expect(status.data).toMatchObject({ state: 'ready', loaded: reference.structures.length, workers: 2, error: null });
    const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(
      `abuse corpus on ${kind}: ${timings.length} calls, ${timings.filter((c) => c.status === 200).length} answered 200; slowest: ${slowest.map((s) => `${s.name} / ${s.call} ${Math.round(s.ms)} ms (${s.status})`).join('; ')}`,
    );
  }, 900_000);

  it('names the limit and its value in the refusal', async () => {
    const chain = await post('/api/guidedsearch/structures/by/smilessmarts', {
      inputType: 'smiles',
      value: 'C'.repeat(1000),
      category: 'substructure',
    });
    expect(chain.statusCode).toBe(400);
    expect(chain.data.message).toBe('The query has 1,000 atoms; a structure query may have at most 250.');
    const nested = await post('/api/guidedsearch/count', {
      searchcriteria: structureRow({ inputType: 'smarts', value: recursive(200), category: 'substructure' }),
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.data.message).toBe('The SMARTS nests recursive SMARTS $(…) 200 deep; a structure query may nest them at most 4 deep.');
    const picture = await get(`/api/chemistry/depiction?smiles=${'C'.repeat(700)}`);
    expect(picture.statusCode).toBe(400);
    expect(picture.data.message).toBe('The query has 700 atoms; a structure query may have at most 250.');
    const sessionid = crypto.randomUUID();
    const similar = await post('/api/guidedsearch/allresultscount', {
      searchcriteria: structureRow({ inputType: 'smiles', value: 'C'.repeat(600), category: 'similarity' }),
      sessionid,
    });
    expect(similar.statusCode).toBe(400);
    expect(similar.data.message).toMatch(/has 600 atoms/);
  });
});
