import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { ONE_DATABASE, authHeaders, startTestApp } from '../test/harness.ts';
import type { TestApp } from '../test/harness.ts';

/**
 * The composition root (services.ts, app.ts): every service is built once, and the routes use the
 * very instances `app.services` holds — the ones main.ts starts and tests inspect. Before, routes
 * looked services up on `app` at run time, in an order only app.ts's sequence guaranteed.
 */
const KI: SearchCriteriaInput = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };

describe.each(ONE_DATABASE)('composition root on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  const post = (url: string, payload: unknown) => t.call({ method: 'POST', url, headers: authHeaders(me), payload: payload as object });

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
  }, 120_000);
  afterAll(() => t?.close());
  afterEach(() => vi.restoreAllMocks());

  it('a count through the API is counted by app.services.search', async () => {
    const { countPaths } = t.app.services.search;
    const before = countPaths.bitmaps + countPaths.sql;
    const answer = await post('/api/guidedsearch/count', { searchcriteria: KI });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(countPaths.bitmaps + countPaths.sql).toBe(before + 1);
  });

  it('search, results, sessions and leaflets routes share the one search service', async () => {
    const { search, results } = t.app.services;
    const run = vi.spyOn(search, 'run');
    const kept = vi.spyOn(search, 'keptSession');
    const dropped = vi.spyOn(search, 'dropSets');
    const overview = vi.spyOn(results, 'overview');
    const sessionid = crypto.randomUUID();

    expect((await post('/api/guidedsearch/allresultscount', { searchcriteria: KI, sessionid })).statusCode).toBe(200);
    expect(run.mock.calls.map((call) => call[1])).toEqual([sessionid]);
    // Its session is this service's: settled waits for this very run's sets.
    await search.settled(sessionid);
    expect((await search.state(sessionid))?.status).toBe('ready');

    const session = await t.call({ method: 'GET', url: `/api/results/session/${sessionid}`, headers: authHeaders(me) });
    expect(session.statusCode, session.body).toBe(200);
    expect(overview).toHaveBeenCalledTimes(1);

    const [reference] = await t.database.db.selectFrom('activities').select('ref_id').where('ref_id', 'is not', null).limit(1).execute();
    const leaflet = await t.call({
      method: 'GET',
      url: `/api/security/leafletview/reference/${reference!.ref_id}?sessionid=${sessionid}`,
      headers: authHeaders(me),
    });
    expect(leaflet.statusCode, leaflet.body).toBe(200);
    expect(kept.mock.calls.some((call) => call[1] === sessionid)).toBe(true);

    expect((await post('/api/dashboard/dropunloggedtables', { sessionid })).statusCode).toBe(200);
    expect(dropped.mock.calls.map((call) => call[1])).toEqual([sessionid]);
  });
});

/** Route registrations take their services as arguments: none decorates `app` with one or builds one. */
describe('route registrations', () => {
  const modules = path.join(import.meta.dirname, 'modules');
  const routeFiles = fs
    .readdirSync(modules, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('-routes.ts'))
    .map((file) => path.join(modules, file));
  // The chemistry module (being split apart) still builds its two request helpers over the engine it is given.
  const built: Record<string, string[]> = { 'chemistry/chemistry-routes.ts': ['DepictionService', 'StructureLookups'] };

  it.each(routeFiles.map((file) => [path.relative(modules, file), file]))('%s', (name, file) => {
    const source = fs.readFileSync(file, 'utf8');
    expect(source, 'decorates the Fastify instance').not.toMatch(/\bapp\.decorate\(|interface FastifyInstance\b/);
    // Fastify's own API only: addContentTypeParser, addHook, log, register, route and the like.
    const members = [...source.matchAll(/\bapp\.([A-Za-z]+)\b/g)].map((match) => match[1]!);
    expect(
      members.filter((member) => /Service|Engine|Jobs|Checker|Import|Rebuild|Setup|services|readiness|admission/.test(member)),
    ).toEqual([]);
    const constructed = [...source.matchAll(/\bnew ([A-Z][A-Za-z]+)\(/g)].map((match) => match[1]!);
    expect(constructed.filter((cls) => !['Date', 'HttpError', 'Set', 'Map', 'Uint8Array', 'Error'].includes(cls))).toEqual(
      built[name] ?? [],
    );
  });

  it('finds the route files', () => expect(routeFiles.length).toBeGreaterThan(20));
});
