import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { ONE_DATABASE, authHeaders, startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';

/**
 * Turns for heavy calls over real HTTP (a socket, not inject: whether a caller is still there is
 * read off the connection): one search at a time per user, the next one queued with its place
 * shown by the progress call, both answered in the end.
 */
describe.each(ONE_DATABASE)('admission of searches over HTTP on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(kind, { ADMISSION_CONCURRENT: '1', ADMISSION_SEARCHES_PER_USER: '1' }, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(() => t.close());

  const post = async (path: string, body: unknown) => {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { ...authHeaders(me), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, data: (await response.json()) as Record<string, unknown> };
  };
  /** The web's search: the count and the three log calls of one session, together. */
  const search = (sessionid: string, criteria: unknown) =>
    Promise.all([
      post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid }),
      post('/api/guidedsearch/lhslogs', { searchpostobject: criteria, sessionid }),
      post('/api/guidedsearch/activitylhslogs', { searchpostobject: criteria, sessionid }),
      post('/api/guidedsearch/assaysunloggedlogs', { searchpostobject: criteria, sessionid }),
    ]);

  it('runs one search per user at a time; the next waits, says so, and is answered', async () => {
    const slow = {
      rows: [
        {
          selectedOption: 'structure',
          structure: { inputType: 'smarts', value: '[#6]~[#6]~[#6]~[#6]~[#6]~[#6]~[#6]~[#6]', category: 'substructure' },
        },
      ],
    };
    const ki = { rows: [{ selectedOption: 'activitytypes', activities: [{ activityType: 'Ki' }] }] };
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    const firstRun = search(first, slow);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const secondRun = search(second, ki);
    // While the first runs, the second is in line, next.
    let seen: Record<string, unknown> | null = null;
    for (let i = 0; i < 100 && !seen; i++) {
      const progress = await fetch(`${base}/api/guidedsearch/progress/${second}`, { headers: authHeaders(me) });
      const body = (await progress.json()) as Record<string, unknown>;
      if (body.phase === 'queued') seen = body;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [a, b] = await Promise.all([firstRun, secondRun]);
    for (const answer of [...a, ...b]) expect(answer.status, JSON.stringify(answer.data)).toBe(200);
    expect((b[0]!.data.rows as { actidscount: number }[])[0]!.actidscount).toBeGreaterThan(0);
    // A search fast enough to finish before the progress call looked leaves nothing to see; this one is slow.
    expect(seen).toMatchObject({ status: 'running', phase: 'queued', queuePosition: 0 });
  });
});
