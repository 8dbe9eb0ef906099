import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { corpus, encode } from './abuse-corpus.test-support.ts';
import type { Abuse, Kind } from './abuse-corpus.test-support.ts';
import { QUERY_LIMITS, limitViolation } from './query-limits.ts';

/*
 * Every engine refusal answers 400 with the limit named, at every entry point (issue 57;
 * docs/security.md "Chemistry engine"). The pathological corpus of abuse.api.test.ts goes through
 * every call that takes a structure, a SMILES, SMARTS or molfile, or a SAR core from the user:
 *
 *   structure preview        POST /api/guidedsearch/structures/by/smilessmarts (substructure; similarity)
 *   depiction                GET  /api/chemistry/depiction ?smiles= / ?smarts= / ?molfile=; ?strId=&highlight=
 *   structure search row     POST /api/guidedsearch/count (substructure, similarity, exact),
 *                            POST /api/guidedsearch/allresultscount, POST /api/guidedsearch/newsearchbyselectioncount
 *   structure filter         POST /api/guidedsearch/allresultscount, the results' filter row (`resultFilter`, AND / NOT)
 *   similarity sort / window POST /api/results/structuretab (`sortSmiles`), POST /api/results/newsearchby/structuretab,
 *                            POST /api/guidedsearch/exportdatacount (`sortSmiles` with a similarity window)
 *   SAR table                POST /api/sar/table (`cores`), POST /api/sar/export (`cores`)
 *   activity cliffs          POST /api/sar/cliffs (`core`)
 *   R-groups                 POST /api/sar/virtual (`core`, `rgroups`)
 *   target prediction        POST /api/prediction/targets (`structure`)
 *
 * The SAR core suggestions (/api/sar/cores), matched pairs (/api/sar/pairs), the analyzers and the
 * charts take no structure from the user (they read the session's stored structures); they are
 * among the normal requests that must answer the same before and after.
 *
 * Each entry point gets every corpus input of a kind it takes that the engine refuses by its
 * limits (refused before RDKit: fast) and a handful of odd inputs within the limits. Never a 5xx; a
 * refused input answers 400 with the limit named (the engine's message, or the contract's maximum
 * for a text longer than the call takes); an odd one 200 or 400 with a message. Both databases.
 */

type Answer = Awaited<ReturnType<TestApp['call']>>;
type Sent = { kind: Kind; text: string };
/** Why an input must be refused: the engine's limit (its message), or the contract's maximum length. */
type Refusal = { engine: string } | { schema: number };
interface EntryPoint {
  name: string;
  /** The kinds of text the call takes. */
  kinds: readonly Kind[];
  /** A SMILES-only field: every text is sent (and limited) as SMILES. */
  as?: Kind;
  /** How the engine's message names what is limited ("a core may have at most …"). */
  what?: string;
  /** The contract trims the text. */
  trims?: boolean;
  /** The longest text the contract takes, per kind (longer: 400 from the schema, naming it). */
  contractMax: (kind: Kind) => number;
  /** The text travels in the URL: the molfile of 2 MB (6 MB percent-encoded) is left out, abuse.api.test.ts sends it there. */
  inUrl?: boolean;
  /** Only the refused inputs (a within-limit input could start paid work). */
  refusedOnly?: boolean;
  send: (input: Sent) => Promise<Answer>;
  /** A normal request: what must not change. */
  normal: () => Promise<unknown>;
}

/** Odd inputs within the limits, in the order they are picked (at most ODD_PER_ENTRY of the kinds a call takes). */
const ODD = [
  'unknown element',
  'V2000 with bond to atom 999',
  'unbalanced brackets x 500',
  'closing parentheses x 500',
  'lone high surrogate (SMILES)',
  'emoji (SMARTS)',
  'V3000 garbage',
  'huge isotope and charge',
  'emoji (SMILES)',
];
const ODD_PER_ENTRY = 5;
/** A refusal is answered before RDKit: far below any time limit, even on a shared 2-core machine. */
const REFUSAL_LIMIT_MS = 5_000;

const count = (n: number) => n.toLocaleString('en-US');
/** A schema's refusal names its maximum: "at most 2,000", "2000 characters", "at most 128 KiB". */
const namesMaximum = (message: string, max: number) =>
  [count(max), String(max), `${max / 1024} KiB`].some((named) => message.includes(named));

describe.each(DATABASES)('pathological structures at every entry point on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let sessionid: string;
  let endpoint: { targetId: number; activityType: string };
  let core: string;
  let stored: { strId: number; smiles: string };
  let models: string;
  const timings: { entry: string; input: string; ms: number; status: number }[] = [];
  const post = (url: string, payload: unknown) => t.call({ method: 'POST', url, headers: authHeaders(me), payload: payload as object });
  const get = (url: string) => t.call({ method: 'GET', url, headers: authHeaders(me) });
  const ok = (answer: Answer, what: string) => {
    expect(answer.statusCode, `${what}: ${answer.body.slice(0, 300)}`).toBe(200);
    return answer.data;
  };
  const byTarget = (targetId: number): SearchCriteriaInput['rows'][number] => ({
    selectedOption: 'target',
    targets: [{ label: `target ${targetId}`, ids: [targetId] }],
  });
  const structureRow = (structure: Record<string, unknown>) =>
    ({ selectedOption: 'structure', structure: { feature: 'desalted', ...structure } }) as SearchCriteriaInput['rows'][number];
  const inputType = (input: Sent) => ({ inputType: input.kind, value: input.text });
  const filterCriteria = (row: SearchCriteriaInput['rows'][number], mode: 'AND' | 'NOT'): SearchCriteriaInput => ({
    rows: [
      { ...byTarget(endpoint.targetId), operator: mode },
      { ...row, operator: null, resultFilter: true } as SearchCriteriaInput['rows'][number],
    ],
  });
  const rowCounts = async (criteria: SearchCriteriaInput, url = '/api/guidedsearch/allresultscount') => {
    const answer = ok(await post(url, { searchcriteria: criteria, sessionid: crypto.randomUUID() }), url);
    return answer.rows;
  };
  const paths = (svg: string) => svg.match(/<path/g)?.length ?? 0;
  let drawWidth = 233;
  const line = (max: number) => () => max;

  const entryPoints = (): EntryPoint[] => [
    {
      name: 'structure preview (substructure)',
      kinds: ['smiles', 'smarts', 'molfile'],
      contractMax: line(100_000),
      send: (input) => post('/api/guidedsearch/structures/by/smilessmarts', { ...inputType(input), category: 'substructure', limit: 12 }),
      normal: async () => {
        const answer = ok(
          await post('/api/guidedsearch/structures/by/smilessmarts', {
            inputType: 'smiles',
            value: 'O=C1NC(=O)SC1',
            category: 'substructure',
            limit: 100,
          }),
          'preview',
        );
        return {
          complete: answer.complete,
          total: answer.total,
          hits: (answer.hits as { strId: number }[]).map((h) => h.strId).sort((a, b) => a - b),
        };
      },
    },
    {
      name: 'structure preview (similarity)',
      kinds: ['smiles', 'molfile'],
      contractMax: line(100_000),
      send: (input) =>
        post('/api/guidedsearch/structures/by/smilessmarts', {
          ...inputType(input),
          category: 'similarity',
          similarityMin: 0.7,
          limit: 12,
        }),
      normal: async () => {
        const answer = ok(
          await post('/api/guidedsearch/structures/by/smilessmarts', {
            inputType: 'smiles',
            value: stored.smiles,
            category: 'similarity',
            similarityMin: 0.7,
            limit: 100,
          }),
          'preview',
        );
        return { complete: answer.complete, hits: (answer.hits as { strId: number }[]).map((h) => h.strId).sort((a, b) => a - b) };
      },
    },
    {
      name: 'depiction',
      kinds: ['smiles', 'smarts', 'molfile'],
      contractMax: (k) => (k === 'molfile' ? 12_000 : 4_000),
      inUrl: true,
      send: (input) => get(`/api/chemistry/depiction?${input.kind}=${encode(input.text)}&w=300&h=200`),
      normal: async () => paths((await get(`/api/chemistry/depiction?smiles=${encode('c1ccncc1CC(=O)O')}&w=${drawWidth++}&h=177`)).body),
    },
    {
      name: 'depiction highlight',
      kinds: ['smiles', 'smarts'],
      what: 'highlight',
      contractMax: line(4_000),
      inUrl: true,
      send: (input) =>
        get(`/api/chemistry/depiction?strId=${stored.strId}&highlight=${encode(input.text)}&highlightKind=${input.kind}&w=300&h=200`),
      normal: async () => {
        const answer = await get(
          `/api/chemistry/depiction?strId=${stored.strId}&highlight=${encode('c1ccccc1')}&highlightKind=smiles&w=${drawWidth++}&h=177`,
        );
        expect(answer.statusCode).toBe(200);
        return paths(answer.body);
      },
    },
    {
      name: 'search count (substructure row)',
      kinds: ['smiles', 'smarts', 'molfile'],
      contractMax: line(100_000),
      send: (input) =>
        post('/api/guidedsearch/count', { searchcriteria: { rows: [structureRow({ ...inputType(input), category: 'substructure' })] } }),
      normal: async () =>
        ok(
          await post('/api/guidedsearch/count', {
            searchcriteria: { rows: [structureRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' })] },
          }),
          'count',
        ),
    },
    {
      name: 'search count (similarity row)',
      kinds: ['smiles', 'molfile'],
      contractMax: line(100_000),
      send: (input) =>
        post('/api/guidedsearch/count', {
          searchcriteria: { rows: [structureRow({ ...inputType(input), category: 'similarity', similarityMin: 0.5 })] },
        }),
      normal: async () =>
        ok(
          await post('/api/guidedsearch/count', {
            searchcriteria: {
              rows: [structureRow({ inputType: 'smiles', value: stored.smiles, category: 'similarity', similarityMin: 0.5 })],
            },
          }),
          'count',
        ),
    },
    {
      name: 'search count (exact row)',
      kinds: ['smiles', 'molfile'],
      contractMax: line(100_000),
      send: (input) =>
        post('/api/guidedsearch/count', { searchcriteria: { rows: [structureRow({ ...inputType(input), category: 'exact' })] } }),
      normal: async () =>
        ok(
          await post('/api/guidedsearch/count', {
            searchcriteria: { rows: [structureRow({ inputType: 'smiles', value: stored.smiles, category: 'exact' })] },
          }),
          'count',
        ),
    },
    {
      name: 'search run (allresultscount)',
      kinds: ['smiles', 'smarts', 'molfile'],
      contractMax: line(100_000),
      send: (input) =>
        post('/api/guidedsearch/allresultscount', {
          searchcriteria: { rows: [structureRow({ ...inputType(input), category: 'substructure' })] },
          sessionid: crypto.randomUUID(),
        }),
      normal: () => rowCounts({ rows: [structureRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' })] }),
    },
    {
      name: 'new search by selection (count)',
      kinds: ['smiles', 'smarts', 'molfile'],
      contractMax: line(100_000),
      refusedOnly: true,
      send: (input) =>
        post('/api/guidedsearch/newsearchbyselectioncount', {
          searchcriteria: { rows: [structureRow({ ...inputType(input), category: 'substructure' })] },
          sessionid: crypto.randomUUID(),
        }),
      normal: () =>
        rowCounts(
          { rows: [structureRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' })] },
          '/api/guidedsearch/newsearchbyselectioncount',
        ),
    },
    {
      name: 'structure filter of the results (keep)',
      kinds: ['smiles', 'smarts', 'molfile'],
      contractMax: line(100_000),
      send: (input) =>
        post('/api/guidedsearch/allresultscount', {
          searchcriteria: filterCriteria(structureRow({ ...inputType(input), category: 'substructure' }), 'AND'),
          sessionid: crypto.randomUUID(),
        }),
      normal: () => rowCounts(filterCriteria(structureRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' }), 'AND')),
    },
    {
      name: 'structure filter of the results (leave out, similarity)',
      kinds: ['smiles', 'molfile'],
      contractMax: line(100_000),
      send: (input) =>
        post('/api/guidedsearch/allresultscount', {
          searchcriteria: filterCriteria(structureRow({ ...inputType(input), category: 'similarity', similarityMin: 0.6 }), 'NOT'),
          sessionid: crypto.randomUUID(),
        }),
      normal: () =>
        rowCounts(
          filterCriteria(structureRow({ inputType: 'smiles', value: stored.smiles, category: 'similarity', similarityMin: 0.6 }), 'NOT'),
        ),
    },
    {
      name: 'similarity sort of a results tab',
      kinds: ['smiles', 'smarts'],
      as: 'smiles',
      trims: true,
      contractMax: line(10_000),
      send: (input) =>
        post('/api/results/structuretab', { sessionid, sortSmiles: input.text, smilesSortCategory: 'similarity', pageSize: 5 }),
      normal: async () => {
        const answer = ok(
          await post('/api/results/structuretab', { sessionid, sortSmiles: stored.smiles, smilesSortCategory: 'similarity', pageSize: 5 }),
          'sort',
        );
        return { rowCount: answer.rowCount, rows: (answer.data as Record<string, unknown>[]).map((row) => row.str_id) };
      },
    },
    {
      name: 'new search by selection in a similarity window',
      kinds: ['smiles', 'smarts'],
      as: 'smiles',
      trims: true,
      contractMax: line(10_000),
      send: (input) =>
        post('/api/results/newsearchby/structuretab', {
          sessionid,
          selection: { selectAll: true, unselectedIds: [] },
          sortSmiles: input.text,
          minValue: 0.2,
        }),
      normal: async () =>
        ok(
          await post('/api/results/newsearchby/structuretab', {
            sessionid,
            selection: { selectAll: true, unselectedIds: [] },
            sortSmiles: stored.smiles,
            minValue: 0.2,
          }),
          'newsearchby',
        ),
    },
    {
      name: 'export count in a similarity window',
      kinds: ['smiles', 'smarts'],
      as: 'smiles',
      trims: true,
      contractMax: line(10_000),
      send: (input) =>
        post('/api/guidedsearch/exportdatacount', {
          sessionid,
          tab: 'structuretab',
          selection: { selectAll: true, unselectedIds: [] },
          sortSmiles: input.text,
          minValue: 0.2,
        }),
      normal: async () => {
        const answer = ok(
          await post('/api/guidedsearch/exportdatacount', {
            sessionid,
            tab: 'structuretab',
            selection: { selectAll: true, unselectedIds: [] },
            sortSmiles: stored.smiles,
            minValue: 0.2,
          }),
          'exportdatacount',
        );
        return { rows: answer.rows, credits: answer.credits };
      },
    },
    {
      name: 'SAR table core',
      kinds: ['smiles', 'smarts', 'molfile'],
      trims: true,
      contractMax: line(131_072),
      send: (input) => post('/api/sar/table', { sessionid, endpoint, cores: [{ kind: input.kind, text: input.text }] }),
      normal: async () => {
        const table = ok(await post('/api/sar/table', { sessionid, endpoint, cores: [{ kind: 'smiles', text: core }] }), 'SAR table');
        return { ...table, durationMs: 0 };
      },
    },
    {
      name: 'SAR table, second core',
      kinds: ['smiles', 'smarts', 'molfile'],
      trims: true,
      contractMax: line(131_072),
      refusedOnly: true,
      send: (input) =>
        post('/api/sar/table', {
          sessionid,
          endpoint,
          cores: [
            { kind: 'smiles', text: core },
            { kind: input.kind, text: input.text },
          ],
        }),
      // The same table as the one-core entry point's (from the server's cache the second time).
      normal: async () =>
        ok(await post('/api/sar/table', { sessionid, endpoint, cores: [{ kind: 'smiles', text: core }] }), 'SAR table').labels,
    },
    {
      name: 'SAR export core',
      kinds: ['smiles', 'smarts', 'molfile'],
      trims: true,
      contractMax: line(131_072),
      // A core RDKit reads would start a paid export job.
      refusedOnly: true,
      send: (input) =>
        post('/api/sar/export', {
          sessionid,
          endpoint,
          cores: [{ kind: input.kind, text: input.text }],
          format: 'xlsx',
          expectedCredits: 0,
        }),
      // The price shown is out of date: 409 with the table's size, and nothing charged.
      normal: async () => {
        const answer = await post('/api/sar/export', {
          sessionid,
          endpoint,
          cores: [{ kind: 'smiles', text: core }],
          format: 'xlsx',
          expectedCredits: 0,
        });
        expect(answer.statusCode, answer.body).toBe(409);
        return answer.data;
      },
    },
    {
      name: 'activity cliffs core',
      kinds: ['smiles', 'smarts'],
      as: 'smiles',
      trims: true,
      contractMax: line(2_000),
      send: (input) =>
        post('/api/sar/cliffs', { sessionid, endpoint, core: input.text, minSimilarity: 0.9, minDelta: 1, limit: 5, pageSize: 1 }),
      normal: async () => {
        const answer = ok(
          await post('/api/sar/cliffs', { sessionid, endpoint, core, minSimilarity: 0.9, minDelta: 1, limit: 5, pageSize: 1 }),
          'cliffs',
        );
        const cliffs = answer.cliffs as { a: { strId: number }; b: { strId: number }; similarity: number; delta: number }[];
        return { total: answer.total, cliffs: cliffs.map((c) => [c.a.strId, c.b.strId, c.similarity, c.delta]) };
      },
    },
    {
      name: 'virtual compound core',
      kinds: ['smiles', 'smarts'],
      as: 'smiles',
      what: 'core',
      trims: true,
      contractMax: line(2_000),
      send: (input) => post('/api/sar/virtual', { core: input.text, rgroups: { R1: 'C[*:1]' } }),
      normal: async () => ok(await post('/api/sar/virtual', { core: 'c1ccc([*:1])cc1', rgroups: { R1: 'C[*:1]' } }), 'virtual'),
    },
    {
      name: 'virtual compound R-group',
      kinds: ['smiles', 'smarts'],
      as: 'smiles',
      what: 'R-group',
      contractMax: line(2_000),
      send: (input) => post('/api/sar/virtual', { core: 'c1ccc([*:1])cc1', rgroups: { R1: input.text } }),
      normal: async () => ok(await post('/api/sar/virtual', { core: 'c1ccc([*:1])cc1', rgroups: { R1: 'OC[*:1]' } }), 'virtual'),
    },
    {
      name: 'target prediction',
      kinds: ['smiles', 'molfile'],
      contractMax: line(131_072),
      send: (input) => post('/api/prediction/targets', { structure: { kind: input.kind, text: input.text }, limit: 5 }),
      normal: async () => {
        const answer = ok(
          await post('/api/prediction/targets', { structure: { kind: 'smiles', text: stored.smiles }, limit: 5 }),
          'prediction',
        );
        return (answer.targets as { targetId: number; score: number }[]).map((target) => [target.targetId, target.score]);
      },
    },
  ];

  /** Calls that take no structure but read the session's: they must answer the same too. */
  const readers = async () => ({
    pairs: { ...ok(await post('/api/sar/pairs', { sessionid, endpoint, minPairs: 2, limit: 20 }), 'pairs'), durationMs: 0 },
    scaffolds: ok(
      await post('/api/security/allmapping/search/visualization', {
        sessionid,
        tab: 'structuretab',
        config: { chart: 'scaffolds', limit: 10 },
      }),
      'analyzer',
    ),
  });

  /** What the call makes of an input: the text as the server sees it, and the refusal expected (null: within the limits). */
  const expectation = (point: EntryPoint, entry: Abuse): { sentKind: Kind; refusal: Refusal | null } => {
    const sentKind = point.as ?? entry.kind;
    const text = point.trims ? entry.text.trim() : entry.text;
    const max = point.contractMax(sentKind);
    // The schema counts UTF-16 code units; past it the schema refuses, naming its maximum.
    if (text.length > max) return { sentKind, refusal: { schema: max } };
    const violation = limitViolation(sentKind, text, QUERY_LIMITS, point.what);
    return { sentKind, refusal: violation ? { engine: violation } : null };
  };

  beforeAll(async () => {
    models = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-models-'));
    t = await startTestApp(kind, { PREDICTION_MODEL_DIR: models }, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    const { rows } = await sql<{ target_id: number }>`SELECT target_id FROM activities
      WHERE target_id IS NOT NULL AND std_activity_type = 'IC50' AND pchembl_value IS NOT NULL
      GROUP BY target_id ORDER BY count(DISTINCT str_id) DESC, target_id LIMIT 1`.execute(t.database.db);
    endpoint = { targetId: Number(rows[0]!.target_id), activityType: 'IC50' };
    sessionid = crypto.randomUUID();
    ok(await post('/api/guidedsearch/allresultscount', { searchcriteria: { rows: [byTarget(endpoint.targetId)] }, sessionid }), 'search');
    ok(await post('/api/results/setSarData', { sessionid, tab: 'activitiestab' }), 'setSarData');
    // The most frequent scaffold larger than a benzene ring: the core of the SAR table and the cliffs.
    const chart = ok(
      await post('/api/security/allmapping/search/visualization', {
        sessionid,
        tab: 'structuretab',
        config: { chart: 'scaffolds', limit: 10 },
      }),
      'scaffolds',
    );
    core = (chart.scaffolds as { smiles: string }[]).find((scaffold) => scaffold.smiles.length > 'c1ccccc1'.length)?.smiles ?? 'c1ccccc1';
    const { rows: picked } = await sql<{
      str_id: number;
      canonical_smiles: string;
    }>`SELECT s.str_id, s.canonical_smiles FROM search_structures x
      JOIN search_sessions ss ON ss.set_id = x.set_id JOIN structures s ON s.str_id = x.str_id
      WHERE ss.id = ${sessionid} ORDER BY s.str_id LIMIT 1`.execute(t.database.db);
    stored = { strId: Number(picked[0]!.str_id), smiles: picked[0]!.canonical_smiles };
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    if (models) fs.rmSync(models, { recursive: true, force: true });
  });

  it('sends the refused corpus and a few odd inputs to every entry point: never a 5xx, every refusal a 400 naming the limit; normal answers do not change', async () => {
    const points = entryPoints();
    const before = { points: [] as unknown[], readers: await readers() };
    for (const point of points) before.points.push(await point.normal());
    const all = corpus();
    const failures: string[] = [];
    for (const point of points) {
      const taken = all.filter((entry) => point.kinds.includes(entry.kind) && !(point.inUrl && entry.oversize));
      const refused = taken.filter((entry) => expectation(point, entry).refusal !== null);
      const odd = point.refusedOnly
        ? []
        : ODD.map((name) => taken.find((entry) => entry.name === name))
            .filter((entry): entry is Abuse => entry !== undefined && expectation(point, entry).refusal === null)
            .slice(0, ODD_PER_ENTRY);
      expect(refused.length, `${point.name}: refused inputs`).toBeGreaterThan(10);
      for (const entry of [...refused, ...odd]) {
        const { sentKind, refusal } = expectation(point, entry);
        const started = performance.now();
        const answer = await point.send({ kind: sentKind, text: entry.text });
        const ms = performance.now() - started;
        timings.push({ entry: point.name, input: entry.name, ms, status: answer.statusCode });
        const message = typeof answer.data.message === 'string' ? answer.data.message : '';
        const what = `${point.name} ← ${entry.name}: ${answer.statusCode} ${answer.body.slice(0, 240)}`;
        if (answer.statusCode >= 500) failures.push(what);
        else if (refusal === null) {
          if (![200, 400].includes(answer.statusCode) || (answer.statusCode === 400 && message.length < 10)) failures.push(what);
        } else if (entry.oversize && answer.statusCode === 413) {
          // Bigger than the request body (1 MiB): refused before the route.
        } else if (answer.statusCode !== 400) failures.push(what);
        else if ('engine' in refusal ? !message.includes(refusal.engine) : !namesMaximum(message, refusal.schema)) {
          failures.push(
            `${what} (expected the limit named: ${'engine' in refusal ? refusal.engine : `at most ${count(refusal.schema)} characters`})`,
          );
        } else if (ms > REFUSAL_LIMIT_MS) failures.push(`${what} (refused after ${Math.round(ms)} ms)`);
      }
    }
    expect(failures).toEqual([]);
    const after = { points: [] as unknown[], readers: await readers() };
    for (const point of points) after.points.push(await point.normal());
    expect(after).toEqual(before);
    const status = ok(await get('/api/chemistry/status'), 'status');
    expect(status).toMatchObject({ state: 'ready', error: null });
    const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(
      `entry-point abuse on ${kind}: ${points.length} entry points, ${timings.length} calls, ${timings.filter((c) => c.status === 400).length} answered 400; slowest: ${slowest.map((s) => `${s.entry} ← ${s.input} ${Math.round(s.ms)} ms (${s.status})`).join('; ')}`,
    );
  }, 300_000);

  it('names the limit and its value in the refusal at each entry point', async () => {
    const messageOf = async (answer: Promise<Answer>) => {
      const got = await answer;
      expect(got.statusCode, got.body).toBe(400);
      return got.data.message;
    };
    const chain = 'C'.repeat(300);
    const atoms = (what: string) => `The query has 300 atoms; a ${what} may have at most 250.`;
    expect(
      await messageOf(
        post('/api/sar/table', {
          sessionid,
          endpoint,
          cores: [
            { kind: 'smiles', text: core },
            { kind: 'smiles', text: chain },
          ],
        }),
      ),
    ).toBe(`Core 2: ${atoms('structure query')}`);
    expect(await messageOf(post('/api/sar/cliffs', { sessionid, endpoint, core: chain }))).toBe(`Core: ${atoms('structure query')}`);
    expect(await messageOf(post('/api/sar/virtual', { core: `${chain}[*:1]`, rgroups: { R1: 'C[*:1]' } }))).toBe(
      'The query has 301 atoms; a core may have at most 250.',
    );
    expect(await messageOf(post('/api/sar/virtual', { core: 'c1ccc([*:1])cc1', rgroups: { R1: `${chain}[*:1]` } }))).toBe(
      'The query has 301 atoms; an R-group may have at most 250.',
    );
    expect(await messageOf(post('/api/prediction/targets', { structure: { kind: 'smiles', text: chain } }))).toBe(atoms('structure query'));
    expect(await messageOf(post('/api/results/structuretab', { sessionid, sortSmiles: chain, smilesSortCategory: 'similarity' }))).toBe(
      `Sort by similarity: ${atoms('structure query')}`,
    );
    expect(
      await messageOf(
        get(`/api/chemistry/depiction?strId=${stored.strId}&highlight=${'C('.repeat(40)}C${')'.repeat(40)}&highlightKind=smiles`),
      ),
    ).toBe('The SMILES nests branches 40 deep; a highlight may nest them at most 32 deep.');
    expect(
      await messageOf(
        post('/api/guidedsearch/allresultscount', {
          searchcriteria: filterCriteria(structureRow({ inputType: 'smiles', value: chain, category: 'substructure' }), 'NOT'),
          sessionid: crypto.randomUUID(),
        }),
      ),
    ).toBe(atoms('structure query'));
    // Each piece within the limits, together a path RDKit cannot take (it ran into the 10 s watchdog): refused before RDKit.
    const started = performance.now();
    const joined = await messageOf(
      post('/api/sar/virtual', {
        core: `[*:1]${'C'.repeat(200)}[*:2]`,
        rgroups: { R1: `${'C'.repeat(240)}[*:1]`, R2: `${'C'.repeat(240)}[*:2]` },
      }),
    );
    expect(joined).toBe(
      'The virtual compound (the core with these R-groups joined on) would have 680 atoms; a virtual compound may have at most 400.',
    );
    expect(performance.now() - started).toBeLessThan(REFUSAL_LIMIT_MS);
  }, 300_000);
});
