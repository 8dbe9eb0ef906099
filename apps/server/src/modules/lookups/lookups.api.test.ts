import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { lookupEndpoints } from '@kb/contracts/lookups';
import type { LookupResult } from '@kb/contracts/lookups';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { EXCLUDED_CLINICAL_PHASES, LOOKUP_FIELDS, fieldId, kindId } from './lookup-fields.ts';
import type { LookupKind } from './lookup-fields.ts';
import { findTermHits } from './lookup-queries.ts';
import { refreshLookupTerms } from './lookup-refresh.ts';
import { TERM_LOOKUPS, runLookup } from './lookup-service.ts';
import type { LookupName, TermLookupName } from './lookup-service.ts';

type Tier = 0 | 1 | 2;

/** Where a word starts: a letter or digit after anything else (the rule the look-up index follows). */
function wordStarts(text: string): number[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}])[\p{L}\p{N}]/gu)].map((m) => m.index).filter((i) => i > 0);
}

/** How a value matches a term, computed here from the value itself; null when it does not contain it. */
function tierOf(value: string, term: string, field: string): Tier | null {
  const v = value.toLowerCase();
  const t = term.toLowerCase();
  if (v === t) return 0;
  if (v.startsWith(t)) return 1;
  const starts = wordStarts(v);
  if (field === 'patent' && /^[a-z]{2}[0-9]/.test(v)) starts.push(2);
  return starts.some((p) => v.startsWith(t, p)) ? 2 : null;
}

describe.each(DATABASES)('autocomplete look-ups on %s', (kind) => {
  let t: TestApp;
  let headers: Record<string, string>;
  const fixture = { strId: 0, inchikey: '', tierTargets: new Map<string, number>(), literal: 0, decoys: [] as number[] };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    const db = t.database.db;
    // What the demo data lacks: synonyms, CAS numbers, names with SQL/LIKE metacharacters, and
    // targets whose exact/prefix/word matches have counts that contradict the tier order.
    const structure = await db
      .selectFrom('structures')
      .select(['str_id', 'inchikey'])
      .where('inchikey', 'is not', null)
      .orderBy('str_id')
      .executeTakeFirstOrThrow();
    fixture.strId = structure.str_id;
    fixture.inchikey = structure.inchikey as string;
    const compound = await db.selectFrom('compounds').select('gvk_id').where('str_id', '=', structure.str_id).executeTakeFirstOrThrow();
    await db
      .insertInto('compound_synonyms')
      .values([
        { gvk_id: compound.gvk_id, synonym: 'Zelboraxine', syn_type: 'TRADE_NAME' },
        { gvk_id: compound.gvk_id, synonym: '918504-65-1', syn_type: 'CAS' },
      ])
      .execute();
    const addTarget = async (name: string, gene: string, activities: number) => {
      const row = await db
        .insertInto('targets')
        .values({ name, gene_symbol: gene, organism: 'Homo sapiens' })
        .returning('target_id')
        .executeTakeFirstOrThrow();
      if (activities > 0) {
        await db
          .insertInto('activities')
          .values(
            Array.from({ length: activities }, () => ({
              str_id: structure.str_id,
              target_id: row.target_id,
              std_activity_type: 'Ki',
              standard_uom: 'nM',
            })),
          )
          .execute();
      }
      return row.target_id;
    };
    for (const [name, gene, activities] of [
      ['Tierase', 'TIRA', 0],
      ['Tierase alpha', 'TIRB', 0],
      ['Tierase gamma', 'TIRC', 2],
      ['Tierase delta', 'TIRD', 0],
      ['Beta tierase', 'TIRE', 5],
    ] as const) {
      fixture.tierTargets.set(name, await addTarget(name, gene, activities));
    }
    fixture.literal = await addTarget("Literal 5%_t O'Brien receptor", 'LIT_A', 0);
    fixture.decoys = [await addTarget('Literal 5a test receptor', 'LITXA', 0), await addTarget('Literal 5xxt receptor', 'LITBA', 0)];
    await refreshLookupTerms(db);
    headers = authHeaders(await t.login('full-user@demo.test'));
  }, 180_000);
  afterAll(() => t.close());

  async function look(name: LookupName, params: Record<string, string | number>, as = headers) {
    const endpoint = lookupEndpoints[name];
    return endpoint.method === 'GET'
      ? t.call({
          method: 'GET',
          url: endpoint.path,
          query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
          headers: as,
        })
      : t.call({ method: 'POST', url: endpoint.path, payload: params, headers: as });
  }

  async function items(name: LookupName, term: string, limit?: number): Promise<LookupResult[]> {
    const res = await look(name, { term, ...(limit ? { limit } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.data.items as LookupResult[];
  }

  /** The values of an item's field, read from the knowledge base itself (not the look-up tables). */
  async function fieldValues(kindName: LookupKind, field: string, id: number | string): Promise<string[]> {
    const q = (query: ReturnType<typeof sql<{ v: string | null }>>) =>
      query.execute(t.database.db).then((r) => r.rows.flatMap((row) => (row.v === null ? [] : [row.v])));
    const num = typeof id === 'number' ? id : -1;
    switch (`${kindName}.${field}`) {
      case 'target.name':
        return q(sql`SELECT name AS v FROM targets WHERE target_id = ${num}`);
      case 'target.gene':
        return q(
          sql`SELECT gene_symbol AS v FROM targets WHERE target_id = ${num} UNION ALL SELECT synonym FROM target_synonyms WHERE target_id = ${num} AND syn_type ~* 'gene.symbol$'`,
        );
      case 'target.uniprot':
        return q(
          sql`SELECT uniprot_id AS v FROM targets WHERE target_id = ${num} UNION ALL SELECT synonym FROM target_synonyms WHERE target_id = ${num} AND syn_type ~* 'uniprot'`,
        );
      case 'target.entrez':
        return q(sql`SELECT entrez_gene_id::text AS v FROM targets WHERE target_id = ${num}`);
      case 'target.pdb':
        return q(sql`SELECT unnest(pdb_ids) AS v FROM targets WHERE target_id = ${num}`);
      case 'target.synonym':
        return q(sql`SELECT synonym AS v FROM target_synonyms WHERE target_id = ${num}`);
      case 'target.family':
        return q(sql`SELECT name AS v FROM target_classes WHERE class_id = ${Number(String(id).replace('family:', ''))}`);
      case 'structure.name':
        return q(
          sql`SELECT name AS v FROM compounds WHERE str_id = ${num} UNION ALL SELECT drug_name FROM clinical_compounds WHERE str_id = ${num}`,
        );
      case 'structure.synonym':
        return q(sql`SELECT s.synonym AS v FROM compound_synonyms s JOIN compounds c USING (gvk_id) WHERE c.str_id = ${num}`);
      case 'structure.cas':
        return q(
          sql`SELECT cas_number AS v FROM compounds WHERE str_id = ${num} UNION ALL SELECT s.synonym FROM compound_synonyms s JOIN compounds c USING (gvk_id) WHERE c.str_id = ${num} AND s.syn_type = 'CAS'`,
        );
      case 'structure.chemblid':
        return q(sql`SELECT chembl_id AS v FROM compounds WHERE str_id = ${num}`);
      case 'structure.id':
        return q(sql`SELECT str_id::text AS v FROM structures WHERE str_id = ${num}`);
      case 'structure.inchikey':
        return q(sql`SELECT inchikey AS v FROM structures WHERE str_id = ${num}`);
      case 'document.title':
        return q(sql`SELECT title AS v FROM documents WHERE ref_id = ${num}`);
      case 'document.citation':
        return q(sql`SELECT reference AS v FROM documents WHERE ref_id = ${num}`);
      case 'document.pubmed':
        return q(sql`SELECT pubmed_id::text AS v FROM documents WHERE ref_id = ${num}`);
      case 'document.doi':
        return q(sql`SELECT doi AS v FROM documents WHERE ref_id = ${num}`);
      case 'document.patent':
        return q(sql`SELECT patent_no AS v FROM documents WHERE ref_id = ${num}`);
      case 'journal.name':
        return q(
          sql`SELECT DISTINCT journal_patent_name AS v FROM documents WHERE ref_type = 'journal' AND journal_patent_name = ${String(id)}`,
        );
      case 'company.name':
        return q(sql`SELECT name AS v FROM companies WHERE company_id = ${num}`);
      case 'indication.name':
        return q(sql`SELECT name AS v FROM indications WHERE indication_id = ${num}`);
      case 'indication.mesh':
        return q(sql`SELECT mesh_id AS v FROM indications WHERE indication_id = ${num}`);
      case 'source.name':
        return q(sql`SELECT name AS v FROM taxonomy WHERE taxonomy_id = ${num}`);
      case 'genus.name':
        return q(sql`SELECT DISTINCT genus AS v FROM taxonomy WHERE genus = ${String(id)}`);
      case 'species.name':
        return q(sql`SELECT DISTINCT species AS v FROM taxonomy WHERE species = ${String(id)}`);
      case 'strain.name':
        return q(sql`SELECT DISTINCT strain AS v FROM taxonomy WHERE strain = ${String(id)}`);
      case 'activitytype.name':
        return q(
          sql`SELECT name AS v FROM activity_types WHERE name = ${String(id)} UNION SELECT DISTINCT std_activity_type FROM activities WHERE std_activity_type = ${String(id)}`,
        );
      case 'mechanism.name':
        return q(
          sql`SELECT name AS v FROM action_types WHERE name = ${String(id)} UNION SELECT DISTINCT activity_mechanism FROM activities WHERE activity_mechanism = ${String(id)}`,
        );
      case 'category.name':
        return q(sql`SELECT DISTINCT compound_category AS v FROM compounds WHERE compound_category = ${String(id)}`);
      case 'clinicalphase.name':
        return q(
          sql`SELECT name AS v FROM clinical_phases WHERE name = ${String(id)} UNION SELECT name FROM clinical_statuses WHERE name = ${String(id)}`,
        );
      default:
        throw new Error(`no check for ${kindName}.${field}`);
    }
  }

  /**
   * Every item really contains the term in the field it claims, and the list is in order: exact,
   * prefix, word; within a tier by count, then label. Identifier matches (structure id, InChIKey)
   * lead their tier. Returns each item's tier.
   */
  async function expectRankedMatches(name: TermLookupName, term: string, found: LookupResult[]): Promise<Tier[]> {
    const { kind: kindName } = TERM_LOOKUPS[name];
    const tiers: Tier[] = [];
    for (const item of found) {
      expect(item.matchedOn, `${name} ${term}: ${item.label}`).toBeTruthy();
      const values = await fieldValues(kindName, item.matchedOn as string, item.id);
      const best = values
        .map((v) => tierOf(v, term, item.matchedOn as string))
        .filter((x): x is Tier => x !== null)
        .sort()[0];
      expect(
        best,
        `${name} "${term}": ${JSON.stringify(item)} does not contain the term in ${item.matchedOn} (${values.join(' | ')})`,
      ).toBeDefined();
      tiers.push(best as Tier);
    }
    // Identifiers and target families lead their tier.
    const direct = (item: LookupResult) => item.matchedOn === 'id' || item.matchedOn === 'inchikey' || item.matchedOn === 'family';
    for (let i = 1; i < found.length; i++) {
      const [a, b] = [found[i - 1] as LookupResult, found[i] as LookupResult];
      const [ta, tb] = [tiers[i - 1] as Tier, tiers[i] as Tier];
      expect(ta, `${name} "${term}": tier order at ${i}`).toBeLessThanOrEqual(tb);
      if (ta !== tb || direct(a) || direct(b)) continue;
      expect(a.count ?? 0, `${name} "${term}": counts descending at ${i}`).toBeGreaterThanOrEqual(b.count ?? 0);
      if (a.count === b.count)
        expect(a.label.toLowerCase() <= b.label.toLowerCase(), `${name} "${term}": "${a.label}" before "${b.label}"`).toBe(true);
    }
    return tiers;
  }

  const CASES: [TermLookupName, string][] = [
    ['target', 'kinase'],
    ['target', 'egfr'],
    ['target', 'p0'],
    ['target', 'tierase'],
    ['targetByName', 'tyrosine'],
    ['targetByPdbId', '3'],
    ['targetByOfficialGeneName', 'jak'],
    ['targetByEntrezGeneId', '1'],
    ['targetByUniprotId', 'p'],
    ['structure', 'demo-apy'],
    ['structure', 'qzn'],
    ['structure', '12'],
    ['structure', 'zelbor'],
    ['bibliography', 'discovery'],
    ['bibliography', 'j. med'],
    ['bibliography', '9000'],
    ['doiCustomSearch', '10.5555/demo.1'],
    ['patentCustomSearch', 'us'],
    ['journalCustomSearch', 'chem'],
    ['companyByName', 'pharma'],
    ['activityType', 'c'],
    ['activityMechanism', 'agonist'],
    ['moleculeCategory', 'small'],
    ['clinicalPhase', 'phase'],
    ['indication', 'neoplasms'],
    ['indication', 'd0'],
    ['source', 'sapiens'],
    ['strainGenus', 'ho'],
    ['strainSpecies', 'sap'],
    ['strainStrain', 'c'],
  ];

  it.each(CASES)(
    '%s "%s" answers items that contain the term in the claimed field, exact before prefix before word',
    async (name, term) => {
      const found = await items(name, term);
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThanOrEqual(20);
      await expectRankedMatches(name, term, found);
    },
  );

  it('every look-up of the contract is covered by a case above', () => {
    const covered = new Set(CASES.map(([name]) => name));
    expect(Object.keys(TERM_LOOKUPS).filter((name) => !covered.has(name as TermLookupName))).toEqual([]);
  });

  it('puts the exact match first, then prefix matches by count then name, then word matches, whatever their counts', async () => {
    const found = await items('target', 'Tierase');
    expect(found.map((i) => i.label)).toEqual(['Tierase', 'Tierase gamma', 'Tierase alpha', 'Tierase delta', 'Beta tierase']);
    expect(found.map((i) => i.count)).toEqual([0, 2, 0, 0, 5]);
    expect(await expectRankedMatches('target', 'Tierase', found)).toEqual([0, 1, 1, 1, 2]);
  });

  it('finds "kinase" inside target names and "erbb" in erbB-2, with ids, gene · UniProt · organism and activity counts', async () => {
    const found = await items('target', 'kinase', 100);
    // Families come first: "Kinase" exactly, then the families with a word starting with "kinase".
    expect(found[0]).toMatchObject({ label: 'Kinase', matchedOn: 'family', detail: 'Family · 13 targets · Enzyme' });
    const kinases = found.filter((i) => i.matchedOn !== 'family');
    const { rows: expected } = await sql<{
      target_id: number;
    }>`SELECT target_id FROM targets WHERE name ~* '(^|[^[:alnum:]])kinase'`.execute(t.database.db);
    expect(new Set(kinases.map((i) => i.id))).toEqual(new Set(expected.map((r) => r.target_id)));
    const abl1 = kinases.find((i) => i.label === 'Tyrosine-protein kinase ABL1');
    expect(abl1).toMatchObject({ detail: 'ABL1 · P00519 · Homo sapiens', matchedOn: 'name' });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM activities WHERE target_id = ${abl1?.id as number}`.execute(
      t.database.db,
    );
    expect(abl1?.count).toBe(rows[0]?.n);
    const erbb = await items('targetByName', 'erbb');
    expect(erbb.map((i) => i.label)).toContain('Receptor tyrosine-protein kinase erbB-2');
    expect((await items('target', 'EGFR'))[0]).toMatchObject({ label: 'Epidermal growth factor receptor', matchedOn: 'gene' });
  });

  it('answers each target field call from that field only', async () => {
    expect((await items('targetByUniprotId', 'P00533'))[0]).toMatchObject({
      label: 'Epidermal growth factor receptor',
      matchedOn: 'uniprot',
    });
    expect((await items('targetByPdbId', '1m17'))[0]).toMatchObject({ label: 'Epidermal growth factor receptor', matchedOn: 'pdb' });
    expect((await items('targetByEntrezGeneId', '1956'))[0]).toMatchObject({
      label: 'Epidermal growth factor receptor',
      matchedOn: 'entrez',
    });
    expect((await items('targetByOfficialGeneName', 'abl1'))[0]).toMatchObject({
      label: 'Tyrosine-protein kinase ABL1',
      matchedOn: 'gene',
    });
    // A gene symbol is not a name: the name call does not find EGFR by "P00533".
    expect(await items('targetByName', 'P00533')).toEqual([]);
  });

  it('finds structures by id, full InChIKey, InChIKey first block, synonym and CAS number', async () => {
    const byId = await items('structure', String(fixture.strId));
    expect(byId[0]).toMatchObject({ id: fixture.strId, matchedOn: 'id' });
    const byKey = await items('structure', fixture.inchikey.toLowerCase());
    expect(byKey[0]).toMatchObject({ id: fixture.strId, matchedOn: 'inchikey' });
    const byBlock = await items('structure', fixture.inchikey.slice(0, 14));
    expect(byBlock.map((i) => i.id)).toContain(fixture.strId);
    const bySynonym = await items('structure', 'zelboraxine');
    expect(bySynonym[0]).toMatchObject({ id: fixture.strId, matchedOn: 'synonym' });
    expect(bySynonym[0]?.detail).toMatch(/^Zelboraxine · C\S+ · MW \d+\.\d\d$/);
    expect((await items('structure', '918504-65'))[0]).toMatchObject({ id: fixture.strId, matchedOn: 'cas' });
    const { rows } = await sql<{
      name: string;
    }>`SELECT name FROM compounds WHERE str_id = ${fixture.strId} ORDER BY gvk_id LIMIT 1`.execute(t.database.db);
    expect(bySynonym[0]?.label).toBe(rows[0]?.name);
  });

  it('finds documents by PubMed id, DOI and patent number with or without its country code', async () => {
    const db = t.database.db;
    const journal = await db
      .selectFrom('documents')
      .select(['ref_id', 'pubmed_id', 'doi', 'title'])
      .where('ref_type', '=', 'journal')
      .orderBy('ref_id')
      .executeTakeFirstOrThrow();
    expect((await items('bibliography', String(journal.pubmed_id)))[0]).toMatchObject({
      id: journal.ref_id,
      matchedOn: 'pubmed',
      label: journal.title,
    });
    expect((await items('doiCustomSearch', (journal.doi as string).toUpperCase()))[0]).toMatchObject({
      id: journal.ref_id,
      label: journal.doi,
      detail: journal.title,
    });
    const patent = await db
      .selectFrom('documents')
      .select(['ref_id', 'patent_no'])
      .where('ref_type', '=', 'patent')
      .orderBy('ref_id')
      .executeTakeFirstOrThrow();
    const number = patent.patent_no as string;
    expect((await items('patentCustomSearch', number))[0]).toMatchObject({ id: patent.ref_id, label: number, matchedOn: 'patent' });
    expect((await items('patentCustomSearch', number.slice(2))).map((i) => i.id)).toContain(patent.ref_id);
    expect((await items('journalCustomSearch', 'J. Med. Chem.'))[0]).toMatchObject({ id: 'J. Med. Chem.', label: 'J. Med. Chem.' });
  });

  it('answers vocabularies with the text itself as id, and ids for companies, indications and sources', async () => {
    expect((await items('activityType', 'ic50'))[0]).toMatchObject({ id: 'IC50', label: 'IC50' });
    expect((await items('companyByName', 'DEMO Kestrel'))[0]).toMatchObject({ id: expect.any(Number), label: 'DEMO Kestrel Pharma AG' });
    expect((await items('indication', 'D001943'))[0]).toMatchObject({
      id: expect.any(Number),
      label: 'Breast Neoplasms',
      matchedOn: 'mesh',
    });
    expect((await items('source', 'HEK293'))[0]).toMatchObject({ id: expect.any(Number), label: 'HEK293' });
    expect((await items('strainStrain', 'sprague'))[0]).toMatchObject({ id: 'Sprague-Dawley', detail: 'Rattus norvegicus' });
  });

  it('never offers Pre-registration, Clinical Phase Unknown or Phase IV as clinical phases', async () => {
    const { rows } = await sql<{ name: string }>`SELECT name FROM clinical_phases`.execute(t.database.db);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining([...EXCLUDED_CLINICAL_PHASES]));
    const offered = new Set<string>();
    for (const term of ['p', 'phase', 'pre', 'clinical', 'iv', 'unknown', 'Phase IV', 'registration', 'l', 'w']) {
      for (const item of await items('clinicalPhase', term, 100)) offered.add(item.label);
    }
    for (const excluded of EXCLUDED_CLINICAL_PHASES) expect(offered).not.toContain(excluded);
    expect(offered).toEqual(new Set(['Phase I', 'Phase II', 'Phase III', 'Preclinical', 'Launched', 'Withdrawn']));
  });

  it('answers the default limit of 20, a given limit, and refuses limits outside 1..100 and empty terms', async () => {
    expect(await items('structure', 'demo')).toHaveLength(20);
    expect(await items('structure', 'demo', 3)).toHaveLength(3);
    expect(await items('structure', 'demo', 100)).toHaveLength(100);
    for (const [name, params] of [
      ['target', { term: 'egfr', limit: 0 }],
      ['target', { term: 'egfr', limit: 101 }],
      ['target', { term: '   ' }],
      ['targetByName', { term: '' }],
      ['structure', { term: 'x'.repeat(201) }],
      ['targetByName', { limit: 5 }],
      ['activityUom', { term: 'n' }],
    ] as const) {
      const res = await look(name, params);
      expect(res.statusCode, `${name} ${JSON.stringify(params)}`).toBe(400);
      expect(res.data).toMatchObject({ message: expect.any(String), code: 'VALIDATION' });
    }
    expect((await look('target', { term: '' })).data.message).toBe('Type at least one character (term)');
  });

  it('matches %, _ and quotes literally', async () => {
    const literal = await items('target', "5%_t O'Brien");
    expect(literal.map((i) => i.id)).toEqual([fixture.literal]);
    for (const term of ['5%_t', 'LIT_A', "o'brien", "O'Brien receptor"]) {
      const ids = (await items('target', term)).map((i) => i.id);
      expect(ids, term).toContain(fixture.literal);
      for (const decoy of fixture.decoys) expect(ids, term).not.toContain(decoy);
    }
    for (const term of ['%', '_', "'", "' OR '1'='1", '\\', '%%%%']) expect(await items('target', term), term).toEqual([]);
  });

  it('lists the units of an activity type, most used first, and nothing for an unknown type', async () => {
    const res = await look('activityUom', { activityType: 'IC50' });
    expect(res.statusCode).toBe(200);
    const units = res.data.items as LookupResult[];
    const { rows } = await sql<{ unit: string; n: number }>`SELECT standard_uom AS unit, count(*)::int AS n FROM activities
      WHERE std_activity_type = 'IC50' AND standard_uom IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1`.execute(t.database.db);
    expect(units.map((u) => [u.id, u.count])).toEqual(rows.map((r) => [r.unit, r.n]));
    expect((await look('activityUom', { activityType: 'ic50', term: 'N' })).data.items).toMatchObject([{ id: 'nM', label: 'nM' }]);
    expect((await look('activityUom', { activityType: 'Papp', term: 'cm' })).data.items).toMatchObject([{ id: '10^-6 cm/s' }]);
    expect((await look('activityUom', { activityType: 'No such type' })).data).toEqual({ items: [] });
  });

  it('ranks a term with more candidates than the cap exactly as a small one (the rank walk)', async () => {
    const db = t.database.db;
    for (const [kindName, term] of [
      ['structure', 'demo'],
      ['structure', 'd'],
      ['document', 'o'],
      ['target', 'p'],
      ['target', 'tierase'],
    ] as const) {
      const scope = {
        kindId: kindId(kindName),
        fieldIds: LOOKUP_FIELDS.filter((f) => f.kind === kindName).map((f) => fieldId(kindName, f.field)),
      };
      for (const limit of [1, 7, 30]) {
        const direct = await findTermHits(db, scope, term, limit, { candidateCap: 1_000_000 });
        const walked = await findTermHits(db, scope, term, limit, { candidateCap: 1 });
        expect(walked, `${kindName} ${term} ${limit}`).toEqual(direct);
      }
    }
  });

  it('matches terms longer than a token against the whole value', async () => {
    const doc = await t.database.db
      .selectFrom('documents')
      .select(['ref_id', 'title'])
      .orderBy(sql`char_length(title)`, 'desc')
      .orderBy('ref_id')
      .executeTakeFirstOrThrow();
    const title = doc.title as string;
    expect(title.length).toBeGreaterThan(70);
    expect((await items('bibliography', title))[0]).toMatchObject({ id: doc.ref_id, matchedOn: 'title' });
    expect((await items('bibliography', title.slice(0, 70))).map((i) => i.id)).toContain(doc.ref_id);
    const inside = title.slice(title.indexOf('Discovery'));
    expect(inside.length).toBeGreaterThan(64);
    expect((await items('bibliography', inside)).map((i) => i.id)).toContain(doc.ref_id);
    expect(await items('bibliography', `${title.slice(0, 70)}zzz`)).toEqual([]);
  });

  it('answers the same through runLookup as through the route', async () => {
    const viaRoute = await items('target', 'kinase', 7);
    expect((await runLookup(t.database.db, 'target', { term: 'kinase', limit: 7 })).items).toEqual(viaRoute);
    await expect(runLookup(t.database.db, 'target', { term: ' ' })).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses roles without search (403) and calls without a token (401)', async () => {
    const flat = authHeaders(await t.login('flat-file-only@demo.test'));
    for (const name of Object.keys(lookupEndpoints) as LookupName[]) {
      const params: Record<string, string> = name === 'activityUom' ? { activityType: 'IC50' } : { term: 'egfr' };
      expect((await look(name, params, flat)).statusCode, name).toBe(403);
      const anonymous = await look(name, params, {});
      expect(anonymous.statusCode, name).toBe(401);
      expect(anonymous.data.message).toBe('token is missing');
    }
  });
});

describe.each(DATABASES)('look-up tables on first use on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers nothing while the knowledge base is empty, then builds the tables on first use once it is not', async () => {
    const headers = authHeaders(await t.login('evaluate-user@demo.test'));
    const call = () => t.call({ method: 'GET', url: '/api/guidedsearch/target', query: { term: 'kinase' }, headers });
    expect((await call()).data).toEqual({ items: [] });
    expect(await t.database.db.selectFrom('lookup_entries').select('entry_id').limit(1).execute()).toEqual([]);
    const target = await t.database.db
      .insertInto('targets')
      .values({ name: 'Tyrosine-protein kinase ABL1', gene_symbol: 'ABL1' })
      .returning('target_id')
      .executeTakeFirstOrThrow();
    const [first, second] = await Promise.all([call(), call()]);
    expect(first.data).toEqual({
      items: [{ id: target.target_id, label: 'Tyrosine-protein kinase ABL1', detail: 'ABL1', matchedOn: 'name', count: 0 }],
    });
    expect(second.data).toEqual(first.data);
  });
});
