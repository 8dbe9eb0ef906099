import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { demoEmailForRole } from '@kb/contracts/roles';
import type { LoginResult } from '@kb/contracts/auth';
import { RULE_OF_FIVE, SEARCH_CANCELLED_MESSAGE } from '@kb/contracts/search';
import type { SearchCriteriaInput } from '@kb/contracts/search';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { ChemReference } from '../../../test/chem-reference.ts';
import initRDKitModule from '@rdkit/rdkit';

/*
 * The chemistry calls and structure rows through the API, on one demo chunk (1,000 structures):
 * counts equal the RDKit reference, bad input answers 400 with a chemist's message, depictions
 * carry ETags, and a running structure search reports progress and can be cancelled. Small
 * shards (CHEM_SHARD_SIZE) make a search long enough, in steps, to watch and cancel.
 */
const byNumber = (a: number, b: number) => a - b;
const structureRow = (structure: Record<string, unknown>, extra: Record<string, unknown> = {}): SearchCriteriaInput => ({
  rows: [
    { selectedOption: 'structure', structure: { feature: 'desalted', ...structure }, ...extra } as SearchCriteriaInput['rows'][number],
  ],
});

describe.each(DATABASES)('chemistry API on %s', (kind) => {
  let t: TestApp;
  let me: LoginResult;
  let other: LoginResult;
  let reference: ChemReference;
  /** The Structures tab of a session as the user sees it (held in memory or in the set tables): each structure with its score. */
  const keptScores = async (sessionid: string) => {
    const page = await post('/api/results/structuretab', { sessionid, pageNumber: 0, pageSize: 500 });
    expect(page.statusCode, page.body).toBe(200);
    expect(Number(page.data.rowCount)).toBeLessThanOrEqual(500);
    return (page.data.data as { str_id: number; similarity: number | null }[]).map(({ str_id, similarity }) => ({ str_id, similarity }));
  };
  const post = (url: string, payload: unknown, login: LoginResult = me) =>
    t.call({ method: 'POST', url, headers: authHeaders(login), payload: payload as object });
  const get = (url: string, login: LoginResult = me, headers: Record<string, string> = {}) =>
    t.call({ method: 'GET', url, headers: { ...authHeaders(login), ...headers } });
  const counts = async (criteria: SearchCriteriaInput) => {
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: criteria, sessionid: crypto.randomUUID() });
    return answer;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { CHEM_SHARD_SIZE: '16', CHEM_WORKERS: '2' }, { demoChunks: 1 });
    me = await t.login(demoEmailForRole('FULL_USER'));
    other = await t.login(demoEmailForRole('EVALUATE_USER'));
    reference = await ChemReference.load(t.database.db);
  }, 120_000);
  afterAll(async () => {
    reference?.close();
    await t?.close();
  });

  it('counts a substructure row exactly as RDKit does, alone and with property filters (Rule of 5)', async () => {
    const expected = reference.substructure('smiles', 'c1ccncc1');
    const alone = await counts(structureRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' }));
    expect(alone.statusCode, alone.body).toBe(200);
    expect((alone.data.rows as { stridscount: number }[])[0]!.stridscount).toBe(expected.length);

    const ro5 = await counts(
      structureRow({ inputType: 'smiles', value: 'c1ccncc1', category: 'substructure' }, { properties: RULE_OF_FIVE }),
    );
    const { rows } = await sql<{
      str_id: number;
    }>`SELECT str_id FROM structures WHERE mol_weight BETWEEN 0 AND 500 AND hb_donors BETWEEN 0 AND 5
      AND hb_acceptor BETWEEN 0 AND 10 AND logp_calc BETWEEN 0 AND 5`.execute(t.database.db);
    const ro5Ids = new Set(rows.map((r) => Number(r.str_id)));
    expect((ro5.data.rows as { stridscount: number }[])[0]!.stridscount).toBe(expected.filter((id) => ro5Ids.has(id)).length);
  });

  it('combines a SMARTS row with another row (NOT) and leaves no hits behind', async () => {
    const smarts = reference.substructure('smarts', '[$([NX3;H2,H1;!$(NC=O)])]');
    const pyridine = new Set(reference.substructure('smiles', 'c1ccncc1'));
    const answer = await counts({
      rows: [
        {
          selectedOption: 'structure',
          structure: { inputType: 'smarts', value: '[$([NX3;H2,H1;!$(NC=O)])]', category: 'substructure', feature: 'desalted' },
          operator: 'NOT',
        },
        {
          selectedOption: 'structure',
          structure: { inputType: 'smiles', value: 'c1ccncc1', category: 'substructure', feature: 'desalted' },
        },
      ],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    // NOT between two structure rows: the structures of the first that are not in the second.
    const strIds = (answer.data.rows as { stridscount: number }[])[0]!.stridscount;
    expect(strIds).toBe(smarts.filter((id) => !pyridine.has(id)).length);
    const left = await t.database.db
      .selectFrom('structure_hits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(left?.n)).toBe(0);
  });

  it('keeps the Tanimoto of each structure of a similarity search with the session', async () => {
    const query = reference.structures[10]!.smiles;
    const expected = reference.similarity(query, 0.5, 1);
    const sessionid = crypto.randomUUID();
    const answer = await post('/api/guidedsearch/allresultscount', {
      searchcriteria: structureRow({ inputType: 'smiles', value: query, category: 'similarity', similarityMin: 0.5 }),
      sessionid,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const kept = await keptScores(sessionid);
    expect(kept.map((r) => Number(r.str_id)).sort(byNumber)).toEqual([...expected.keys()].sort(byNumber));
    for (const row of kept) expect(row.similarity).toBeCloseTo(expected.get(Number(row.str_id))!, 5);
  });

  it('keeps only the N nearest of a similarity row, of the whole knowledge base even beside an AND row, and refuses a bad N', async () => {
    const query = reference.structures[10]!.smiles;
    const ranked = [...reference.similarity(query, 0.2, 1).entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    expect(ranked.length).toBeGreaterThan(30);
    const nearest = structureRow({ inputType: 'smiles', value: query, category: 'similarity', similarityMin: 0.2, similarityNearest: 25 });
    const sessionid = crypto.randomUUID();
    const answer = await post('/api/guidedsearch/allresultscount', { searchcriteria: nearest, sessionid });
    expect(answer.statusCode, answer.body).toBe(200);
    const kept = await keptScores(sessionid);
    expect(kept.map((r) => Number(r.str_id)).sort(byNumber)).toEqual(
      ranked
        .slice(0, 25)
        .map(([id]) => id)
        .sort(byNumber),
    );
    // After an AND row the nearest are still those of the whole knowledge base, then intersected.
    const pyridine = new Set(reference.substructure('smiles', 'c1ccncc1'));
    const both = await counts({
      rows: [
        {
          selectedOption: 'structure',
          structure: { inputType: 'smiles', value: 'c1ccncc1', category: 'substructure', feature: 'desalted' },
          operator: 'AND',
        },
        nearest.rows[0]!,
      ],
    });
    expect(both.statusCode, both.body).toBe(200);
    expect((both.data.rows as { stridscount: number }[])[0]!.stridscount).toBe(
      ranked.slice(0, 25).filter(([id]) => pyridine.has(id)).length,
    );
    // The preview shows the first of them and counts N.
    const preview = await post('/api/guidedsearch/structures/by/smilessmarts', {
      inputType: 'smiles',
      value: query,
      category: 'similarity',
      similarityMin: 0.2,
      similarityNearest: 25,
      limit: 4,
    });
    expect(preview.data).toMatchObject({ total: 25, complete: true });
    expect((preview.data.hits as { strId: number }[]).map((h) => h.strId)).toEqual(ranked.slice(0, 4).map(([id]) => id));
    for (const bad of [0, 2.5, 10_001]) {
      const refused = await counts(structureRow({ inputType: 'smiles', value: query, category: 'similarity', similarityNearest: bad }));
      expect(refused.statusCode, `nearest ${bad}`).toBe(400);
      expect(refused.data.message).toMatch(/1 to 10,000 nearest structures/);
    }
  });

  it('finds a structure exactly from its SMILES written another way (molfile, Kekulé)', async () => {
    const target = reference.structures[3]!;
    const answer = await counts(structureRow({ inputType: 'molfile', value: reference.molfile(target.smiles), category: 'exact' }));
    expect(answer.statusCode, answer.body).toBe(200);
    expect((answer.data.rows as { stridscount: number }[])[0]!.stridscount).toBe(reference.exact(target.smiles).length);
  });

  it('previews the first hits of a query, with the count when the search completed', async () => {
    const generic = await post('/api/guidedsearch/structures/by/smilessmarts', {
      inputType: 'smiles',
      value: 'c1ccccc1',
      category: 'substructure',
      limit: 5,
    });
    expect(generic.statusCode, generic.body).toBe(200);
    expect(generic.data).toMatchObject({
      complete: false,
      total: null,
      indexSize: reference.structures.length,
      query: { smiles: 'c1ccccc1', smarts: null },
    });
    const benzene = new Set(reference.substructure('smiles', 'c1ccccc1'));
    for (const hit of generic.data.hits as { strId: number; smiles: string }[]) expect(benzene.has(hit.strId)).toBe(true);

    const selective = await post('/api/guidedsearch/structures/by/smilessmarts', {
      inputType: 'smarts',
      value: '[$(c1ccccc1)]-[$(c1ccncc1)]',
      category: 'substructure',
      limit: 100,
    });
    const expected = reference.substructure('smarts', '[$(c1ccccc1)]-[$(c1ccncc1)]');
    if (expected.length < 100) expect(selective.data).toMatchObject({ complete: true, total: expected.length });

    const similar = await post('/api/guidedsearch/structures/by/smilessmarts', {
      inputType: 'smiles',
      value: reference.structures[0]!.smiles,
      category: 'similarity',
      similarityMin: 0.3,
      limit: 4,
    });
    const hits = similar.data.hits as { strId: number; similarity: number }[];
    expect(hits[0]).toMatchObject({ strId: reference.structures[0]!.strId, similarity: 1 });
    expect(similar.data.total).toBe(reference.similarity(reference.structures[0]!.smiles, 0.3, 1).size);
  });

  it('answers 400 with what is wrong, for bad SMILES, SMARTS, molfiles and categories', async () => {
    const bad = async (body: object, pattern: RegExp) => {
      const answer = await post('/api/guidedsearch/structures/by/smilessmarts', { category: 'substructure', ...body });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.data.message).toMatch(pattern);
    };
    await bad({ inputType: 'smiles', value: 'CC(C' }, /SMILES "CC\(C": .*extra open parentheses[\s\S]*position 3/);
    await bad({ inputType: 'smiles', value: 'c1cccc1' }, /kekulize[\s\S]*\[nH\]/i);
    await bad({ inputType: 'smiles', value: 'N(C)(C)(C)(C)C' }, /valence/);
    await bad({ inputType: 'smarts', value: '[C;X4' }, /SMARTS[\s\S]*position 5/);
    await bad({ inputType: 'molfile', value: 'not a molfile' }, /not a molfile/);
    await bad({ inputType: 'smiles', value: '   ' }, /Enter a structure/);
    await bad({ inputType: 'smarts', value: 'c1ccccc1', category: 'exact' }, /SMARTS describes a pattern/);
    await bad({ inputType: 'smarts', value: 'c1ccccc1', category: 'similarity' }, /whole molecules/);
    // The same checks guard a search row: nothing is run, nothing kept.
    const row = await counts(structureRow({ inputType: 'smiles', value: 'C1CC', category: 'substructure' }));
    expect(row.statusCode).toBe(400);
    expect(row.data.message).toMatch(/unclosed ring/);
  });

  it('looks up InChIKeys: whole key, then skeleton; refuses what is not a key', async () => {
    const { rows } = await sql<{
      inchikey: string;
      str_id: number;
    }>`SELECT inchikey, str_id FROM structures WHERE inchikey IS NOT NULL ORDER BY str_id LIMIT 1`.execute(t.database.db);
    const key = rows[0]!.inchikey;
    const exact = await post('/api/guidedsearch/structures/by/inchikey', { inchikey: key.toLowerCase() });
    expect(exact.data.match).toBe('exact');
    expect((exact.data.structures as { strId: number }[]).map((s) => s.strId)).toContain(Number(rows[0]!.str_id));
    const skeleton = await post('/api/guidedsearch/structures/by/inchikey', { inchikey: `${key.slice(0, 14)}-ZZZZZZZZZZ-N` });
    expect(skeleton.data.match).toBe('skeleton');
    const none = await post('/api/guidedsearch/structures/by/inchikey', { inchikey: 'AAAAAAAAAAAAAA-BBBBBBBBBB-N' });
    expect(none.data).toEqual({ match: 'none', structures: [], more: false });
    const wrong = await post('/api/guidedsearch/structures/by/inchikey', { inchikey: 'aspirin' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.data.message).toMatch(/not an InChIKey/);
  });

  it('counts structures in property ranges and reports each property range', async () => {
    const answer = await post('/api/guidedsearch/structure/physicochemical/structural', {
      properties: { molmin: 300, molmax: 450, rotbondsmax: 6 },
    });
    const { rows } = await sql<{
      n: number;
      total: number;
    }>`SELECT count(*) FILTER (WHERE mol_weight BETWEEN 300 AND 450 AND rot_bonds <= 6)::int AS n,
      count(*)::int AS total FROM structures`.execute(t.database.db);
    expect(answer.data).toEqual({ count: rows[0]!.n, total: rows[0]!.total });
    const bad = await post('/api/guidedsearch/structure/physicochemical/structural', { properties: { molmin: 500, molmax: 100 } });
    expect(bad.statusCode).toBe(400);

    const ranges = await get('/api/security/bibliography/structural/properties/minmax');
    const mw = (ranges.data.properties as { column: string; min: number; max: number; known: number }[]).find(
      (p) => p.column === 'mol_weight',
    )!;
    const { rows: mwRows } = await sql<{
      min: number;
      max: number;
    }>`SELECT min(mol_weight) AS min, max(mol_weight) AS max FROM structures`.execute(t.database.db);
    expect(mw.min).toBeCloseTo(mwRows[0]!.min, 6);
    expect(mw.max).toBeCloseTo(mwRows[0]!.max, 6);
    expect(mw.known).toBe(reference.structures.length);
  });

  it('draws SVG depictions with ETags (304 when unchanged), highlights, and clear errors', async () => {
    const id = reference.structures[0]!.strId;
    const first = await get(`/api/chemistry/depiction?strId=${id}&w=200&h=150`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(first.body).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*<\/svg>/);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await get(`/api/chemistry/depiction?strId=${id}&w=200&h=150`, me, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    const highlighted = await get(
      `/api/chemistry/depiction?smiles=${encodeURIComponent('c1ccccc1CC(=O)O')}&highlight=${encodeURIComponent('C(=O)O')}&highlightKind=smiles`,
    );
    expect(highlighted.statusCode).toBe(200);
    expect(highlighted.headers.etag).not.toBe(etag);
    // RDKit draws highlighted atoms with filled ellipses / coloured paths.
    const plain = await get(`/api/chemistry/depiction?smiles=${encodeURIComponent('c1ccccc1CC(=O)O')}`);
    expect(highlighted.body.length).toBeGreaterThan(plain.body.length);
    expect((await get('/api/chemistry/depiction?strId=99999999')).statusCode).toBe(404);
    const unreadable = await get(`/api/chemistry/depiction?smiles=${encodeURIComponent('C1CC')}`);
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.data.message).toMatch(/unclosed ring/);
    expect((await get('/api/chemistry/depiction?strId=1&smiles=C')).statusCode).toBe(400);
    expect((await t.call({ method: 'GET', url: `/api/chemistry/depiction?strId=${id}` })).statusCode).toBe(401);
  });

  it("draws the rest of a highlight (highlightMode=rest): exactly the atoms and bonds outside the query's match", async () => {
    // Phenylacetic acid: 10 atoms, 10 bonds; the acid C(=O)O matches 3 atoms and their 2 bonds.
    const depiction = (mode: string, highlight = 'C(=O)O') =>
      get(
        `/api/chemistry/depiction?smiles=${encodeURIComponent('c1ccccc1CC(=O)O')}&highlight=${encodeURIComponent(highlight)}&highlightKind=smiles&highlightMode=${mode}`,
      );
    const match = await depiction('match');
    const rest = await depiction('rest');
    expect(match.statusCode).toBe(200);
    expect(rest.statusCode).toBe(200);
    expect(rest.headers.etag).not.toBe(match.headers.etag);
    const all = (n: number) => Array.from({ length: n }, (_, i) => i);
    const matched = orange(match.body);
    expect(matched.atoms).toEqual([7, 8, 9]);
    expect(matched.bonds).toHaveLength(2);
    const outside = orange(rest.body);
    expect(outside.atoms).toEqual(all(10).filter((i) => !matched.atoms.includes(i)));
    expect(outside.bonds).toEqual(all(10).filter((i) => !matched.bonds.includes(i)));
    // A query that matches nothing colours nothing in either mode (not "all of it differs").
    expect(orange((await depiction('rest', 'N')).body)).toEqual({ atoms: [], bonds: [] });
    // The default is 'match' (the same drawing, so the same ETag).
    const byDefault = await get(
      `/api/chemistry/depiction?smiles=${encodeURIComponent('c1ccccc1CC(=O)O')}&highlight=${encodeURIComponent('C(=O)O')}&highlightKind=smiles`,
    );
    expect(byDefault.headers.etag).toBe(match.headers.etag);
    expect((await depiction('other')).statusCode).toBe(400);
  });

  it('lays a drawing out like a template (align), and leaves a structure it does not match as drawn', async () => {
    const draw = (smiles: string, align?: string) =>
      get(
        `/api/chemistry/depiction?smiles=${encodeURIComponent(smiles)}${align ? `&align=${encodeURIComponent(align)}&alignKind=smiles` : ''}`,
      );
    const gefitinib = 'COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OCCCN1CCOCC1';
    const plain = await draw(gefitinib);
    const aligned = await draw(gefitinib, 'c1ccc2ncncc2c1');
    expect(aligned.statusCode).toBe(200);
    expect(aligned.headers.etag).not.toBe(plain.headers.etag);
    // The same atoms and bonds, placed elsewhere.
    expect(aligned.body).not.toBe(plain.body);
    expect(orange(aligned.body)).toEqual({ atoms: [], bonds: [] });
    // A template it does not contain: RDKit's own layout, the same picture.
    const unmatched = await draw(gefitinib, 'C1CCCCCCCCC1');
    expect(unmatched.statusCode).toBe(200);
    expect(unmatched.body).toBe(plain.body);
  });

  it('draws two compounds laid out on one SMARTS template (their common part) with that part in the same orientation', async () => {
    // Two quinazolines of a cliff, and their MCS (RDKit FMCS, rings match rings) as the SAR view's cliffs draw them.
    const a = 'Cc1ccc(Nc2ncnc3cc(OC)c(OCCCN4CCOCC4)cc23)cc1Cl';
    const b = 'COc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OC';
    const rd = await initRDKitModule();
    const list = new rd.MolList();
    for (const smiles of [a, b]) {
      const mol = rd.get_mol(smiles)!;
      list.append(mol);
      mol.delete();
    }
    const common = (JSON.parse(rd.get_mcs_as_json(list, JSON.stringify({ RingMatchesRingOnly: true }))) as { smarts: string }).smarts;
    list.delete();
    /** The direction (mod 180°) of each drawn bond of the common part, in the template's bond order. */
    const directions = async (smiles: string, align: boolean) => {
      const answer = await get(
        `/api/chemistry/depiction?smiles=${encodeURIComponent(smiles)}&w=300&h=200${align ? `&align=${encodeURIComponent(common)}&alignKind=smarts` : ''}`,
      );
      expect(answer.statusCode, answer.body).toBe(200);
      const mol = rd.get_mol(smiles)!;
      const query = rd.get_qmol(common)!;
      const match = JSON.parse(mol.get_substruct_match(query)) as { bonds: number[] };
      mol.delete();
      query.delete();
      expect(match.bonds.length).toBeGreaterThan(10);
      return match.bonds.map((bond) => {
        const path = answer.body.match(
          new RegExp(`class='bond-${bond} atom-\\d+ atom-\\d+' d='M ([\\d.]+),([\\d.]+) L ([\\d.]+),([\\d.]+)`),
        );
        expect(path, `bond ${bond} drawn`).not.toBeNull();
        const angle = Math.atan2(Number(path![4]) - Number(path![2]), Number(path![3]) - Number(path![1]));
        return (angle + 2 * Math.PI) % Math.PI;
      });
    };
    /** The largest difference in degrees between the two drawings' directions of the same bond. */
    const apart = (x: number[], y: number[]) =>
      Math.max(...x.map((v, i) => Math.min(Math.abs(v - y[i]!), Math.PI - Math.abs(v - y[i]!)) * (180 / Math.PI)));
    const aligned = apart(await directions(a, true), await directions(b, true));
    const plain = apart(await directions(a, false), await directions(b, false));
    expect(aligned).toBeLessThan(3);
    // Each in its own layout, the pair was drawn in two orientations (the issue this fixes).
    expect(plain).toBeGreaterThan(20);
  });

  it('reports the progress of a running structure search and cancels it (409, nothing kept)', async () => {
    const sessionid = crypto.randomUUID();
    // A search slow enough to watch: a long generic path inside a recursive SMARTS, which the
    // workers cannot decide themselves (a plain path is decided in JavaScript in a few ms), so RDKit
    // matches every structure.
    const criteria = structureRow({ inputType: 'smarts', value: '[$(*~*~*~*~*~*~*~*~*~*~*~*~*~*~*~*)]', category: 'substructure' });
    const running = post('/api/guidedsearch/lhslogs', { searchpostobject: criteria, sessionid });
    let progress: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++) {
      progress = (await get(`/api/guidedsearch/progress/${sessionid}`)).data;
      if (progress.phase === 'structure' && (progress.searched as number) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(progress).toMatchObject({ sessionid, status: 'running', phase: 'structure', total: reference.structures.length });
    // Another user may not stop it; its owner may. One call between seeing it run and cancelling:
    // the search lasts well under a second on two busy cores.
    expect((await post(`/api/guidedsearch/cancel/${sessionid}`, {}, other)).statusCode).toBe(403);
    const cancel = await post(`/api/guidedsearch/cancel/${sessionid}`, {});
    expect(cancel.data).toEqual({ cancelled: true });
    // Nor watch it.
    expect((await get(`/api/guidedsearch/progress/${sessionid}`, other)).statusCode).toBe(403);
    const answer = await running;
    expect(answer.statusCode).toBe(409);
    expect(answer.data.message).toBe(SEARCH_CANCELLED_MESSAGE);
    const after = await get(`/api/guidedsearch/progress/${sessionid}`);
    expect(after.data).toMatchObject({ status: 'cancelled' });
    const session = await t.database.db
      .selectFrom('search_sessions')
      .select('set_id')
      .where('id', '=', sessionid)
      .executeTakeFirstOrThrow();
    const kept = await t.database.db
      .selectFrom('search_structures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('set_id', '=', session.set_id)
      .executeTakeFirst();
    expect(Number(kept?.n)).toBe(0);
    // Nothing running: nothing to cancel.
    expect((await post(`/api/guidedsearch/cancel/${sessionid}`, {})).data).toEqual({ cancelled: false });
  });

  it('stops a search at its time limit with a message that says how far it got', async () => {
    const limited = await startTestApp(kind, { STRUCTURE_SEARCH_TIME_LIMIT_SECONDS: '0.001' }, { demoChunks: 0 });
    try {
      const user = await limited.login(demoEmailForRole('FULL_USER'));
      const answer = await limited.call({
        method: 'POST',
        url: '/api/guidedsearch/count',
        headers: authHeaders(user),
        payload: { searchcriteria: structureRow({ inputType: 'smarts', value: '*', category: 'substructure' }) },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.data.message).toMatch(/time limit of 0\.001 s[\s\S]*too generic/);
    } finally {
      await limited.close();
    }
  });
});

/** Atoms (filled ellipses) and bonds (filled paths) RDKit drew in the highlight orange (#FF8C19), by index. */
function orange(svg: string): { atoms: number[]; bonds: number[] } {
  const ids = (pattern: RegExp) => [...new Set([...svg.matchAll(pattern)].map((m) => Number(m[1])))].sort((x, y) => x - y);
  return {
    atoms: ids(/<ellipse[^>]*class='atom-(\d+)'[^>]*fill:#FF8C19/g),
    bonds: ids(/<path class='bond-(\d+)[^']*'[^>]*fill:#FF8C19/g),
  };
}
