import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { wholeBound } from '../chemistry/property-predicate.ts';

/** Structural-property bounds on whole-number columns (smallint counts): any finite bound is a question with an answer. */
describe('wholeBound', () => {
  it('turns a bound into the same set of whole numbers, within smallint', () => {
    expect(wholeBound('min', 2.1)).toBe(3);
    expect(wholeBound('max', 5.5)).toBe(5);
    expect(wholeBound('min', -1e300)).toBe(-32_768);
    expect(wholeBound('max', 1e300)).toBe(32_767);
    expect(wholeBound('min', 40_000)).toBe('none');
    expect(wholeBound('max', -40_000)).toBe('none');
  });
});

describe.each(DATABASES)('fractional and huge property bounds on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
  }, 180_000);
  afterAll(() => t.close());

  const structures = async (properties: Record<string, number>) => {
    const answer = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/count',
      headers: authHeaders(me),
      payload: { searchcriteria: { rows: [{ selectedOption: 'structure', properties }] } },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.data.rows as { stridscount: number }[])[0]!.stridscount;
  };
  const inDatabase = async (where: ReturnType<typeof sql>) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM structures s WHERE ${where}`.execute(t.database.db)).rows[0]!.n;

  it('answers fractional bounds on counts as the whole numbers they mean', async () => {
    const expected = await inDatabase(sql`s.hb_donors >= 1 AND s.hb_donors <= 3 AND s.rot_bonds <= 4`);
    expect(expected).toBeGreaterThan(0);
    expect(await structures({ hbdmin: 0.5, hbdmax: 3.9, rotbondsmax: 4.2 })).toBe(expected);
  });

  it('answers bounds beyond the column type: all rows or none, never a 500', async () => {
    expect(await structures({ hbamin: 40_000 })).toBe(0);
    expect(await structures({ hbamax: 1e300, molmax: 1e300 })).toBe(
      await inDatabase(sql`s.hb_acceptor IS NOT NULL AND s.mol_weight IS NOT NULL`),
    );
  });
});
