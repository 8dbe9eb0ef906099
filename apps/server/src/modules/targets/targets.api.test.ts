import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { SearchCounts, TargetTerm } from '@kb/contracts/search';
import type { TargetResolveResponse } from '@kb/contracts/targets';
import { TARGET_RESOLVE_MAX_TERMS } from '@kb/contracts/targets';
import type { UploadValidateResponse } from '@kb/contracts/uploads';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { resolveTargetTerms } from './target-resolver.ts';

/**
 * Target text and families (docs/search-semantics.md): the rules through the API, on the demo
 * catalogue plus a few targets added here for what it lacks (synonyms that are words, a family
 * under another, names with a word inside a longer word). The expected targets of each case are
 * listed by hand; the expected activity and structure counts are plain SQL over those targets,
 * never the resolver.
 */
const ANY_FIELD = ['name', 'uniprot', 'gene', 'entrez', 'pdb'] as const;
const RESOLVE = '/api/search/targets/resolve';

describe.each(DATABASES)('target text and families on %s', (kind) => {
  let t: TestApp;
  let login: LoginResult;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    const db = t.database.db;
    login = await t.login(demoEmailForRole('FULL_USER'));
    // Under the demo's Enzyme > Transferase (PARP1's family): a family of its own for PARP2.
    const transferase = await db
      .selectFrom('target_classes')
      .select(['class_id', 'level'])
      .where('name', '=', 'Transferase')
      .executeTakeFirstOrThrow();
    const artd = await db
      .insertInto('target_classes')
      .values({ parent_id: transferase.class_id, name: 'ADP-ribosyltransferase', level: transferase.level + 1 })
      .returning('class_id')
      .executeTakeFirstOrThrow();
    const structure = await db.selectFrom('structures').select('str_id').orderBy('str_id').executeTakeFirstOrThrow();
    const add = async (name: string, gene: string, classId: number | null, synonyms: [string, string][], activities: number) => {
      const row = await db
        .insertInto('targets')
        .values({ name, gene_symbol: gene, organism: 'Homo sapiens', class_id: classId })
        .returning('target_id')
        .executeTakeFirstOrThrow();
      if (synonyms.length)
        await db
          .insertInto('target_synonyms')
          .values(synonyms.map(([synonym, syn_type]) => ({ target_id: row.target_id, synonym, syn_type })))
          .execute();
      if (activities) {
        await db
          .insertInto('activities')
          .values(
            Array.from({ length: activities }, () => ({
              str_id: structure.str_id,
              target_id: row.target_id,
              std_activity_type: 'IC50',
              standard_uom: 'nM',
            })),
          )
          .execute();
      }
    };
    await add(
      'Poly [ADP-ribose] polymerase 2',
      'PARP2',
      artd.class_id,
      [
        ['PARP-2', 'synonym'],
        ['Q9UGN5', 'UniProt accession'],
        ['ADPRT2', 'gene symbol other'],
      ],
      3,
    );
    await add(
      'Tankyrase-1',
      'TNKS',
      null,
      [
        ['PARP5A', 'gene symbol other'],
        ['Tankyrase I', 'synonym'],
      ],
      2,
    );
    await add('Tankyrase-2', 'TNKS2', null, [['PARP 5B', 'synonym']], 4);
    // Decoys: "parp" inside longer words only.
    await add('Sparpin kinase-like protein', 'SPRPN', null, [['XPARPX', 'synonym']], 1);
  }, 300_000);
  afterAll(() => t?.close());

  const headers = () => authHeaders(login);
  const genesOf = async (symbols: string[]) =>
    (
      await sql<{ target_id: number }>`SELECT target_id FROM targets WHERE gene_symbol = ANY(${symbols}::text[]) ORDER BY 1`.execute(
        t.database.db,
      )
    ).rows.map((r) => Number(r.target_id));

  async function resolve(targets: Partial<TargetTerm>[], limit?: number) {
    return t.call({ method: 'POST', url: RESOLVE, headers: headers(), payload: { targets, ...(limit === undefined ? {} : { limit }) } });
  }

  async function counts(targets: Partial<TargetTerm>[]): Promise<SearchCounts> {
    const res = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/allresultscount',
      headers: headers(),
      payload: { searchcriteria: { rows: [{ selectedOption: 'target', targets }] }, sessionid: crypto.randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.data.rows as SearchCounts[])[0]!;
  }

  /** Activities on the targets, and structures: those of the activities and of development compounds acting on the targets. */
  async function expectedFor(ids: number[]): Promise<{ activities: number; structures: number }> {
    const { rows } = await sql<{ activities: number; structures: number }>`SELECT
      (SELECT count(*)::int FROM activities WHERE target_id = ANY(${ids}::bigint[])) AS activities,
      (SELECT count(*)::int FROM (SELECT str_id FROM activities WHERE target_id = ANY(${ids}::bigint[]) AND str_id IS NOT NULL
        UNION SELECT cc.str_id FROM clinical_compounds cc JOIN clinical_compound_targets cct USING (clinical_compound_id)
          WHERE cct.target_id = ANY(${ids}::bigint[]) AND cc.str_id IS NOT NULL) s) AS structures`.execute(t.database.db);
    return rows[0]!;
  }

  const CASES: { name: string; term: Partial<TargetTerm>; genes: string[]; match: string }[] = [
    {
      name: 'prefix of gene symbols, synonyms and whole-word synonyms',
      term: { label: 'PARP' },
      genes: ['PARP1', 'PARP2', 'TNKS', 'TNKS2'],
      match: 'text',
    },
    {
      name: 'wildcard over gene symbols, synonyms and name words',
      term: { label: 'PARP*' },
      genes: ['PARP1', 'PARP2', 'TNKS', 'TNKS2'],
      match: 'pattern',
    },
    { name: 'one-character wildcard', term: { label: 'TNKS?' }, genes: ['TNKS2'], match: 'pattern' },
    { name: 'family by name, with the families under it', term: { label: 'transferase' }, genes: ['PARP1', 'PARP2'], match: 'text' },
    {
      name: 'whole word of a synonym ("Tankyrase I") and prefix of names',
      term: { label: 'tankyrase' },
      genes: ['TNKS', 'TNKS2'],
      match: 'text',
    },
    { name: 'whole words inside names', term: { label: 'polymerase' }, genes: ['PARP1', 'PARP2'], match: 'text' },
    { name: 'an exact gene symbol is that target only', term: { label: 'PARP1' }, genes: ['PARP1'], match: 'identifier' },
    { name: 'an exact UniProt accession kept as a synonym', term: { label: 'q9ugn5' }, genes: ['PARP2'], match: 'identifier' },
    {
      name: 'gene field: symbols and aliases starting with the text',
      term: { label: 'ADPRT', targetCategories: ['gene'] },
      genes: ['PARP2'],
      match: 'text',
    },
    { name: 'a short text matches names and synonyms exactly only', term: { label: 'X1' }, genes: [], match: 'text' },
  ];

  it.each(CASES)('$name: "$term.label"', async ({ term, genes, match }) => {
    const full = { targetCategories: [...ANY_FIELD], ...term } as Partial<TargetTerm>;
    const expectedIds = await genesOf(genes);
    const res = await resolve([full], 500);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.data as unknown as TargetResolveResponse;
    expect(body.targets.map((x) => x.target_id).sort((a, b) => a - b)).toEqual(expectedIds);
    expect(body.count).toBe(expectedIds.length);
    expect(body.terms).toEqual([{ label: term.label, match, count: expectedIds.length }]);
    const expected = await expectedFor(expectedIds);
    const found = await counts([full]);
    expect({ activities: found.actidscount, structures: found.stridscount }).toEqual(expected);
    if (genes.length) expect(found.actidscount).toBeGreaterThan(0);
  });

  it('gives the same answer scanning each text and joining the words of the values (many texts, uploads)', async () => {
    const labels = [
      ...CASES.map((c) => c.term.label!),
      'receptor',
      'protein kinase',
      'kinase',
      'tyrosine-protein kin',
      '[adp-ribose] polymerase',
      'D2 receptor',
      'x2 receptor',
      'factor',
    ];
    const terms = labels.map((label) => ({ label, targetCategories: [...ANY_FIELD] }));
    const scanned = await resolveTargetTerms(t.database.db, terms, { wordJoinThreshold: 1_000 });
    const joined = await resolveTargetTerms(t.database.db, terms, { wordJoinThreshold: 0 });
    expect(joined).toEqual(scanned);
    expect(scanned.filter((r) => r.ids.length > 0).length).toBeGreaterThan(10);
  });

  it('never matches a text inside a longer word', async () => {
    const body = (await resolve([{ label: 'parp', targetCategories: [...ANY_FIELD] }], 500)).data as unknown as TargetResolveResponse;
    expect(body.targets.map((x) => x.gene_symbol)).not.toContain('SPRPN');
  });

  it('counts a picked family (class ids) as the targets of the family and everything under it', async () => {
    const enzyme = await t.database.db
      .selectFrom('target_classes')
      .select('class_id')
      .where('name', '=', 'Transferase')
      .executeTakeFirstOrThrow();
    const term = { label: 'Transferase', classIds: [enzyme.class_id] };
    const body = (await resolve([term])).data as unknown as TargetResolveResponse;
    const expectedIds = await genesOf(['PARP1', 'PARP2']);
    expect(body).toMatchObject({ count: 2, terms: [{ label: 'Transferase', match: 'family', count: 2 }] });
    expect((await counts([term])).actidscount).toBe((await expectedFor(expectedIds)).activities);
  });

  it('answers the count of several terms together (each target once) and what each term stands for, listing by name up to the limit', async () => {
    const terms = [
      { label: 'EGFR', targetCategories: [...ANY_FIELD] },
      { label: 'P00533', targetCategories: [...ANY_FIELD] },
      { label: 'JAK', targetCategories: [...ANY_FIELD] },
    ];
    const res = await resolve(terms, 2);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.data as unknown as TargetResolveResponse;
    expect(body.count).toBe(3);
    expect(body.terms.map((x) => [x.match, x.count])).toEqual([
      ['identifier', 1],
      ['identifier', 1],
      ['text', 2],
    ]);
    expect(body.targets).toHaveLength(2);
    expect(body.targets[0]).toMatchObject({
      name: 'Epidermal growth factor receptor',
      gene_symbol: 'EGFR',
      uniprot_id: 'P00533',
      organism: 'Homo sapiens',
    });
    // The search uses exactly these targets.
    expect((await counts(terms)).actidscount).toBe((await expectedFor(await genesOf(['EGFR', 'JAK2', 'JAK3']))).activities);
  });

  it('refuses unbounded or malformed input with 400', async () => {
    const tooMany = Array.from({ length: TARGET_RESOLVE_MAX_TERMS + 1 }, (_, i) => ({ label: `t${i}` }));
    const many = await resolve(tooMany);
    expect(many.statusCode).toBe(400);
    expect((await resolve([])).statusCode).toBe(400);
    expect((await resolve([{ label: 'x'.repeat(501) }])).statusCode).toBe(400);
    expect((await resolve([{ label: 'EGFR' }], 501)).statusCode).toBe(400);
    expect((await resolve([{ label: 'EGFR', classIds: Array.from({ length: 101 }, (_, i) => i + 1) }])).statusCode).toBe(400);
    const short = await resolve([{ label: 'J*' }]);
    expect(short.statusCode).toBe(400);
    expect(short.data.message).toMatch(/too short for a wildcard/);
    // The search refuses the same term, naming the row.
    const search = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/count',
      headers: headers(),
      payload: { searchcriteria: { rows: [{ selectedOption: 'target', targets: [{ label: '*a*' }] }] } },
    });
    expect(search.statusCode).toBe(400);
    expect(search.data.message).toMatch(/^Row 1 \(target\): .*too short for a wildcard/);
    // Wildcards are regular expressions over every name: bounded per term and per call.
    const wild = await resolve([{ label: 'k*i*n*a*s*e' }]);
    expect(wild.statusCode).toBe(400);
    expect(wild.data.message).toMatch(/5 wildcards: at most 4 in one term/);
    expect((await resolve([{ label: 'k*n*a*e*' }])).statusCode).toBe(200);
    const patterns = await resolve(Array.from({ length: 51 }, (_, i) => ({ label: `kin${i}*` })));
    expect(patterns.statusCode).toBe(400);
    expect(patterns.data.message).toMatch(/51 target terms with wildcards: at most 50/);
    expect((await resolve(Array.from({ length: 50 }, (_, i) => ({ label: `kin${i}*` })))).statusCode).toBe(200);
    expect((await resolve([{ label: 'Kinase', classIds: [2 ** 31] }])).statusCode).toBe(400);
  });

  it('is for the search roles only', async () => {
    const other = await t.login(demoEmailForRole('FLAT_FILE_ONLY'));
    const res = await t.call({ method: 'POST', url: RESOLVE, headers: authHeaders(other), payload: { targets: [{ label: 'EGFR' }] } });
    expect(res.statusCode).toBe(403);
  });

  it('uploads a target list by the same rules: EGFR and P00533 are the same target, PARP the PARP family, a bare wildcard is invalid', async () => {
    const content = 'EGFR\nP00533\nPARP\n*a\nno such target zz\n';
    const res = await t.call({
      method: 'POST',
      url: '/api/guidedsearch/uploadvia/validate/data',
      headers: headers(),
      payload: { listType: 'target', fileName: 'targets.txt', contentBase64: Buffer.from(content).toString('base64') },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.data as unknown as UploadValidateResponse;
    const egfr = await genesOf(['EGFR']);
    expect(body.valid.map((v) => [v.term, v.ids])).toEqual([
      ['EGFR', egfr],
      ['P00533', egfr],
      ['PARP', await genesOf(['PARP1', 'PARP2', 'TNKS', 'TNKS2'])],
    ]);
    expect(body.invalid).toEqual([{ term: '*a', reason: 'a wildcard needs at least 3 letters or digits besides * and ?' }]);
    expect(body.unidentified).toEqual(['no such target zz']);
  });
});
