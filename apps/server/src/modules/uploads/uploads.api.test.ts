import { monitorEventLoopDelay } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResult } from '@kb/contracts/auth';
import { demoEmailForRole } from '@kb/contracts/roles';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_TERMS } from '@kb/contracts/uploads';
import type { UploadListType, UploadValidateResponse } from '@kb/contracts/uploads';
import { DATABASES, authHeaders, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';

const VALIDATE = '/api/guidedsearch/uploadvia/validate/data';
const DOWNLOAD = '/api/security/allmapping/search/unreportedterms/download';
const REPORT = '/api/user/tracker/reportterms/save';

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('terms');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A workbook of one column written row by row (exceljs's streaming writer: quick for 250,000 rows). */
async function xlsxColumn(count: number, value: (i: number) => number | string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('terms');
  for (let i = 0; i < count; i++) sheet.addRow([value(i)]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Ids as the API answers them: sorted, numbers or text. */
const sorted = (ids: (number | string)[]) =>
  [...ids].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));

describe.each(DATABASES)('uploaded lists of search terms on %s', (kind) => {
  let t: TestApp;
  let login: LoginResult;

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 2 });
    login = await t.login(demoEmailForRole('FULL_USER'));
  }, 300_000);
  afterAll(() => t?.close());

  async function upload(listType: UploadListType, fileName: string, content: Buffer | string) {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    return t.call({
      method: 'POST',
      url: VALIDATE,
      headers: authHeaders(login),
      payload: { listType, fileName, contentBase64: bytes.toString('base64') },
    });
  }

  async function validUpload(listType: UploadListType, fileName: string, content: Buffer | string): Promise<UploadValidateResponse> {
    const res = await upload(listType, fileName, content);
    expect(res.statusCode, res.body).toBe(200);
    return res.data as unknown as UploadValidateResponse;
  }

  /** Ids of the first column of a query, sorted like the API's. */
  async function ids(query: ReturnType<typeof sql>): Promise<(number | string)[]> {
    const { rows } = await query.execute(t.database.db);
    return sorted(rows.map((r) => Object.values(r as Record<string, number | string>)[0] as number | string));
  }

  it('checks a txt list of PubMed ids: valid ids resolve to references, letters are invalid, unknown numbers unidentified', async () => {
    const { rows: docs } = await sql<{
      pubmed_id: number;
    }>`select pubmed_id from documents where pubmed_id is not null order by ref_id limit 3`.execute(t.database.db);
    const [a, b, c] = docs.map((d) => String(d.pubmed_id));
    const { rows: maxRows } = await sql<{ n: number }>`select max(pubmed_id) + 1000 as n from documents`.execute(t.database.db);
    const unknown = String(maxRows[0]?.n);
    const file = `pubmed_id\r\n${a}\r\n  ${b} | ${c}\r\nPMID12x\r\n\r\n${a}\r\n${unknown}\r\n0${c}\r\n`;

    const body = await validUpload('pubmed', 'pmids.txt', file);
    expect(body).toMatchObject({ listType: 'pubmed', fileName: 'pmids.txt', total: 7 });
    expect(body.invalid).toEqual([
      { term: 'pubmed_id', reason: 'not a number' },
      { term: 'PMID12x', reason: 'not a number' },
    ]);
    expect(body.unidentified).toEqual([unknown]);
    expect(body.valid.map((v) => v.term)).toEqual([a, b, c, `0${c}`]);
    for (const v of body.valid) {
      expect(v.ids).toEqual(await ids(sql`select ref_id from documents where pubmed_id = ${Number(v.term)}`));
      expect(v.ids.length).toBeGreaterThan(0);
      expect(v.label).toEqual(expect.any(String));
    }
    expect(body.casNumbers).toBeUndefined();
  });

  it('keeps CAS numbers of a csv structure-id list apart and resolves them as CAS', async () => {
    const { rows } = await sql<{
      str_id: number;
      gvk_id: number;
    }>`select str_id, gvk_id from compounds where str_id is not null order by gvk_id limit 3`.execute(t.database.db);
    const [s1, s2, s3] = rows as [
      { str_id: number; gvk_id: number },
      { str_id: number; gvk_id: number },
      { str_id: number; gvk_id: number },
    ];
    await sql`update compounds set cas_number = '50-78-2' where gvk_id = ${s3.gvk_id}`.execute(t.database.db);
    const { rows: maxRows } = await sql<{ n: number }>`select max(str_id) + 5 as n from structures`.execute(t.database.db);
    const missing = String(maxRows[0]?.n);
    const csv = `"str_id","comment"\n${s1.str_id},"first, with comma"\n"${s2.str_id}|50-78-2",x\n58-08-2,unknown CAS\n${missing},\nabc,\n${s1.str_id},dup\n`;

    const body = await validUpload('strid', 'structures.csv', csv);
    expect(body.total).toBe(7);
    // Found CAS numbers are kept apart from the structure ids; one not found is unidentified.
    expect(body.casNumbers).toEqual(['50-78-2']);
    expect(await ids(sql`select distinct str_id from compounds where cas_number = '50-78-2'`)).toContain(s3.str_id);
    expect(body.invalid).toEqual([
      { term: 'str_id', reason: 'not a number' },
      { term: 'abc', reason: 'not a number' },
    ]);
    expect(body.unidentified).toEqual(['58-08-2', missing]);
    expect(body.valid.map((v) => v.term)).toEqual([String(s1.str_id), String(s2.str_id)]);
    expect(body.valid[0]?.ids).toEqual([s1.str_id]);
    expect(body.valid[1]?.ids).toEqual([s2.str_id]);
    expect(body.valid[0]?.label).toEqual(expect.any(String));

    // The same CAS numbers as a CAS list resolve to their structures.
    const cas = await validUpload('cas', 'cas.txt', '50-78-2\n58-08-2\n');
    expect(cas.casNumbers).toBeUndefined();
    expect(cas.valid).toEqual([
      {
        term: '50-78-2',
        ids: await ids(sql`select distinct str_id from compounds where cas_number = '50-78-2'`),
        label: expect.any(String),
      },
    ]);
    expect(cas.unidentified).toEqual(['58-08-2']);
  });

  it('checks an xlsx list of targets by name, gene symbol or synonym, case-insensitively', async () => {
    const file = await xlsx([['Target'], ['egfr'], ['Dopamine D2 receptor | P00533'], ['NOT A TARGET 123'], ['EGFR']]);
    const body = await validUpload('target', 'targets.xlsx', file);
    expect(body.total).toBe(6);
    expect(body.invalid).toEqual([]);
    expect(body.unidentified).toEqual(['Target', 'NOT A TARGET 123']);
    for (const v of body.valid) {
      const key = v.term.toLowerCase();
      expect(v.ids, v.term).toEqual(
        await ids(sql`select target_id from targets where lower(name) = ${key} or lower(gene_symbol) = ${key}
          union select target_id from target_synonyms where lower(synonym) = ${key}`),
      );
      expect(v.ids.length).toBeGreaterThan(0);
    }
    expect(body.valid.map((v) => v.term)).toEqual(['egfr', 'Dopamine D2 receptor', 'P00533', 'EGFR']);
  });

  it('checks an xlsx list of compound names against compound and development-compound names', async () => {
    const { rows: names } = await sql<{
      name: string;
    }>`select name from compounds where name is not null order by gvk_id desc limit 2`.execute(t.database.db);
    const { rows: drugs } = await sql<{
      drug_name: string;
    }>`select drug_name from clinical_compounds order by clinical_compound_id limit 1`.execute(t.database.db);
    const terms = [names[0]?.name.toLowerCase(), names[1]?.name, drugs[0]?.drug_name, 'unobtainium'] as string[];
    const body = await validUpload('compoundname', 'names.xlsx', await xlsx(terms.map((n) => [n])));
    expect(body.unidentified).toEqual(['unobtainium']);
    expect(body.valid.map((v) => v.term)).toEqual(terms.slice(0, 3));
    for (const v of body.valid) {
      expect(v.ids, v.term).toEqual(
        await ids(sql`select str_id from compounds where lower(name) = lower(${v.term}) and str_id is not null
          union select str_id from clinical_compounds where lower(drug_name) = lower(${v.term}) and str_id is not null`),
      );
    }
  });

  /** One known term per list type, with the ids it must resolve to computed here in plain SQL. */
  const cases: {
    listType: UploadListType;
    term: string | ((db: TestApp) => Promise<string>);
    expected: (term: string) => ReturnType<typeof sql>;
  }[] = [
    { listType: 'uniprot', term: 'p00533', expected: () => sql`select target_id from targets where uniprot_id = 'P00533'` },
    { listType: 'gene', term: 'Jak2', expected: () => sql`select target_id from targets where gene_symbol = 'JAK2'` },
    { listType: 'entrez', term: '1956', expected: () => sql`select target_id from targets where entrez_gene_id = 1956` },
    { listType: 'pdb', term: '4hjo', expected: () => sql`select target_id from targets where '4HJO' = any(pdb_ids)` },
    {
      listType: 'inchikey',
      term: async (app) =>
        (
          await sql<{ k: string }>`select lower(inchikey) as k from structures where inchikey is not null order by str_id limit 1`.execute(
            app.database.db,
          )
        ).rows[0]?.k ?? '',
      expected: (term) => sql`select str_id from structures where inchikey = upper(${term})`,
    },
    {
      listType: 'refid',
      term: async (app) => String((await sql<{ r: number }>`select max(ref_id) as r from documents`.execute(app.database.db)).rows[0]?.r),
      expected: (term) => sql`select ref_id from documents where ref_id = ${Number(term)}`,
    },
    {
      listType: 'doi',
      term: async (app) =>
        `https://doi.org/${(await sql<{ d: string }>`select upper(doi) as d from documents where doi is not null order by ref_id limit 1`.execute(app.database.db)).rows[0]?.d}`,
      expected: (term) => sql`select ref_id from documents where lower(doi) = lower(${term.replace('https://doi.org/', '')})`,
    },
    {
      listType: 'year',
      term: async (app) => String((await sql<{ y: number }>`select min(year) as y from documents`.execute(app.database.db)).rows[0]?.y),
      expected: (term) => sql`select ${Number(term)}::int as year`,
    },
    {
      listType: 'author',
      term: async (app) =>
        (await sql<{ n: string }>`select upper(name) as n from document_authors order by ref_id, position limit 1`.execute(app.database.db))
          .rows[0]?.n ?? '',
      expected: (term) => sql`select distinct name from document_authors where lower(name) = lower(${term})`,
    },
    {
      listType: 'company',
      term: async (app) =>
        (await sql<{ n: string }>`select lower(name) as n from companies order by company_id limit 1`.execute(app.database.db)).rows[0]
          ?.n ?? '',
      expected: (term) => sql`select company_id from companies where lower(name) = ${term}`,
    },
    { listType: 'indication', term: 'asthma', expected: () => sql`select indication_id from indications where lower(name) = 'asthma'` },
    { listType: 'mesh', term: 'D002289', expected: () => sql`select indication_id from indications where mesh_id = 'D002289'` },
    { listType: 'activitytype', term: 'ic50', expected: () => sql`select name from activity_types where lower(name) = 'ic50'` },
    {
      listType: 'mechanism',
      term: async (app) =>
        (
          await sql<{
            m: string;
          }>`select lower(activity_mechanism) as m from activities where activity_mechanism is not null limit 1`.execute(app.database.db)
        ).rows[0]?.m ?? '',
      expected: (term) =>
        sql`select name from action_types where lower(name) = ${term} union select distinct activity_mechanism from activities where lower(activity_mechanism) = ${term}`,
    },
    {
      listType: 'category',
      term: async (app) =>
        (
          await sql<{ c: string }>`select upper(compound_category) as c from compounds where compound_category is not null limit 1`.execute(
            app.database.db,
          )
        ).rows[0]?.c ?? '',
      expected: (term) => sql`select distinct compound_category from compounds where lower(compound_category) = lower(${term})`,
    },
    {
      listType: 'source',
      term: async (app) =>
        (await sql<{ n: string }>`select name as n from taxonomy order by taxonomy_id desc limit 1`.execute(app.database.db)).rows[0]?.n ??
        '',
      expected: (term) => sql`select taxonomy_id from taxonomy where lower(name) = lower(${term})`,
    },
  ];

  it.each(cases)('resolves a $listType list', async ({ listType, term, expected }) => {
    const value = typeof term === 'string' ? term : await term(t);
    expect(value).not.toBe('');
    // Well-formed for its list, and in no knowledge base.
    const unknown =
      listType === 'inchikey'
        ? 'AAAAAAAAAAAAAA-BBBBBBBBBB-C'
        : ['entrez', 'refid', 'year'].includes(listType)
          ? '999999999999'
          : `zz-no-such-${listType}-zz`;
    const body = await validUpload(listType, `${listType}.txt`, `${value}\n${unknown}\nbad term!|${value}\n`);
    const want = await ids(expected(value));
    expect(want.length, `${listType} has test data`).toBeGreaterThan(0);
    expect(body.valid).toEqual([{ term: value, ids: want, label: expect.any(String) }]);
    // A list searched by text is labelled with the canonical text itself.
    if (typeof want[0] === 'string') expect(body.valid[0]?.label).toBe(want[0]);
    // Only digits-only lists and InChIKeys have a form to get wrong; other lists look the term up.
    const hasForm = ['entrez', 'refid', 'year', 'inchikey'].includes(listType);
    expect(body.invalid.map((i) => i.term)).toEqual(hasForm ? ['bad term!'] : []);
    expect(body.unidentified).toEqual(hasForm ? [unknown] : [unknown, 'bad term!']);
    expect(body.total).toBe(3);
  });

  it('finds patents with or without country and kind code', async () => {
    const { rows } = await sql<{ ref_id: number }>`insert into documents (ref_type, title, patent_no, country_code)
      values ('patent', 'Upload test patent', 'US-8513270-B2', 'US') returning ref_id`.execute(t.database.db);
    const refId = rows[0]?.ref_id as number;
    const { rows: demo } = await sql<{ patent_no: string; country_code: string }>`select patent_no, country_code from documents
      where patent_no is not null and country_code is not null and patent_no like country_code || '%' order by ref_id limit 1`.execute(
      t.database.db,
    );
    const demoNo = demo[0]?.patent_no as string;
    const withoutCountry = demoNo.slice((demo[0]?.country_code as string).length);

    const body = await validUpload(
      'patent',
      'patents.txt',
      ['US8513270', '8513270-B2', 'us 8,513,270 b2', withoutCountry, 'XX-0000001'].join('\n'),
    );
    expect(body.unidentified).toEqual(['XX-0000001']);
    expect(body.valid.slice(0, 3).map((v) => v.ids)).toEqual([[refId], [refId], [refId]]);
    expect(body.valid[3]).toMatchObject({ term: withoutCountry });
    expect(body.valid[3]?.ids).toEqual(
      await ids(sql`select ref_id from documents where patent_no = ${demoNo} or (patent_no = ${withoutCountry})`),
    );
  });

  it('refuses files it cannot read with 400 and a message saying why', async () => {
    const cases: [string, Buffer | string, RegExp][] = [
      ['big.txt', Buffer.alloc(UPLOAD_MAX_BYTES + 3, '1\n'), /at most 2 MB/],
      ['image.txt', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), /binary file/],
      ['ids.pdf', '%PDF-1.4', /Only \.txt, \.csv and \.xlsx files can be uploaded; "ids\.pdf" is a \.pdf file/],
      ['ids.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(300, 7)]), /not a valid Excel workbook/],
      ['ids.xlsx', 'just,some,text\n', /not a valid Excel workbook/],
      ['empty.csv', '', /"empty\.csv" is empty/],
      ['blank.txt', '\n  \r\n|\n', /holds no search terms/],
    ];
    for (const [fileName, content, message] of cases) {
      const res = await upload('pubmed', fileName, content);
      expect(res.statusCode, fileName).toBe(400);
      expect(res.data.message, fileName).toMatch(message);
      expect(res.data.code).toBe('VALIDATION');
    }
    // Far over the limit, the request itself is refused before the file is read.
    const huge = await upload('pubmed', 'huge.txt', Buffer.alloc(UPLOAD_MAX_BYTES * 1.2, '1\n'));
    expect(huge.statusCode).toBe(400);
    expect(huge.data.message).toEqual(expect.any(String));
  });

  it('refuses a 200,000-line CSV and a 250,000-row workbook with 400 and the limit, not 500', async () => {
    const csv = Array.from({ length: 200_000 }, (_, i) => `${1_000_000 + i}`).join('\n');
    expect(csv.length).toBeLessThanOrEqual(UPLOAD_MAX_BYTES);
    const big = await upload('pubmed', 'big.csv', csv);
    expect(big.statusCode, big.body).toBe(400);
    expect(big.data.message).toBe('"big.csv" has 200,000 lines; a term list may have at most 100,000. Split it into several lists.');

    const sheet = await xlsxColumn(250_000, (i) => 1_000_000 + i);
    expect(sheet.length).toBeLessThanOrEqual(UPLOAD_MAX_BYTES);
    const wide = await upload('pubmed', 'big.xlsx', sheet);
    expect(wide.statusCode, wide.body).toBe(400);
    expect(wide.data.message).toBe(
      '"big.xlsx" has more than 100,000 rows; a term list may have at most 100,000. Split it into several lists.',
    );

    // The server is fine afterwards: a small list still resolves.
    const { rows } = await sql<{
      pubmed_id: number;
    }>`select pubmed_id from documents where pubmed_id is not null order by ref_id limit 1`.execute(t.database.db);
    const after = await validUpload('pubmed', 'one.csv', `${rows[0]?.pubmed_id}\n`);
    expect(after.valid).toHaveLength(1);
  }, 120_000);

  it('keeps the event loop free and /api/health answering while a 100,000-row workbook is read', async () => {
    const { rows } = await sql<{ str_id: number }>`select str_id from structures order by str_id limit 50`.execute(t.database.db);
    const known = rows.map((r) => r.str_id);
    // Few different terms: the time measured is the reading, not the look-up of 100,000 terms.
    const sheet = await xlsxColumn(UPLOAD_MAX_TERMS, (i) => known[i % known.length] as number);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const health: number[] = [];
    delay.enable();
    const started = performance.now();
    let done = false;
    const answer = upload('strid', 'ids.xlsx', sheet).finally(() => {
      done = true;
    });
    while (!done) {
      const asked = performance.now();
      const res = await t.call({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      health.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const res = await answer;
    const ms = performance.now() - started;
    delay.disable();
    const maxDelay = delay.max / 1e6;
    console.info(
      `[uploads] ${kind}: 100,000-row workbook read in ${Math.round(ms)} ms; event-loop delay max ${maxDelay.toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; /api/health answered ${health.length} times, slowest ${Math.round(Math.max(0, ...health))} ms`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.data as unknown as UploadValidateResponse;
    expect(body.total).toBe(known.length);
    expect(body.valid.map((v) => v.ids)).toEqual(known.map((id) => [id]));
    expect(maxDelay).toBeLessThan(200);
    expect(health.length).toBeGreaterThan(1);
    for (const h of health) expect(h).toBeLessThan(200);
  }, 120_000);

  it('refuses malformed and hostile files with 400 and a message', async () => {
    const binaryCsv = Buffer.concat([Buffer.from('123\n'), Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256))]);
    const zipBomb = await JSZip.loadAsync(await xlsx([['a']]));
    zipBomb.file(
      'xl/sharedStrings.xml',
      `<sst>${'<si><t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</t></si>'.repeat(1_000_000)}</sst>`,
    );
    const bomb = await zipBomb.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
    const cases: [string, Buffer | string, RegExp][] = [
      ['ids.csv', binaryCsv, /looks like a binary file/],
      ['ids.xlsx', Buffer.from('%PDF-1.4 not a zip at all'), /not a valid Excel workbook/],
      ['ids.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(5000, 0x41)]), /not a valid Excel workbook/],
      ['bomb.xlsx', bomb, /The workbook unpacks to more than 64 MB/],
      ['long.txt', `${'x'.repeat(UPLOAD_MAX_BYTES - 10)}\n`, /^$/],
    ];
    for (const [fileName, content, message] of cases) {
      const res = await upload('compoundname', fileName, content);
      if (fileName === 'long.txt') {
        // One 2 MB line is one overlong term: reported invalid, and not echoed whole.
        expect(res.statusCode, res.body).toBe(200);
        const body = res.data as unknown as UploadValidateResponse;
        expect(body.invalid).toEqual([{ term: `${'x'.repeat(200)}…`, reason: 'longer than 1,000 characters' }]);
        continue;
      }
      expect(res.statusCode, `${fileName}: ${res.body}`).toBe(400);
      expect(res.data.message, fileName).toMatch(message);
    }
  }, 60_000);

  it('downloads unidentified terms as a text file, one per line', async () => {
    const terms = ['58-08-2', 'unobtainium', 'Ünïcode name', 'x|y'];
    const res = await t.call({
      method: 'POST',
      url: DOWNLOAD,
      headers: authHeaders(login),
      payload: { listType: 'compoundname', fileName: 'names.xlsx', terms },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="unidentified-compoundname.txt"; filename*=UTF-8\'\'unidentified-compoundname.txt',
    );
    expect(res.body.split('\n')).toEqual([...terms, '']);
  });

  it('saves reported terms under the caller’s id and refuses another user’s id', async () => {
    const terms = ['58-08-2', 'unobtainium', ' unobtainium ', 'zz-new-term'];
    const payload = {
      user_id: login.id,
      listType: 'compoundname',
      fileName: 'C:\\fakepath\\names.xlsx',
      terms,
      comment: 'Please add these.',
    };
    const res = await t.call({ method: 'POST', url: REPORT, headers: authHeaders(login), payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.message).toBe('Thank you: 3 terms were sent to the curation team.');
    const report = await t.database.db
      .selectFrom('term_reports')
      .selectAll()
      .where('user_id', '=', login.id)
      .orderBy('report_id', 'desc')
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({ list_type: 'compoundname', file_name: 'names.xlsx', comment: 'Please add these.', term_count: 3 });
    expect(report.created_at).toBeInstanceOf(Date);
    const saved = await t.database.db
      .selectFrom('reported_terms')
      .select(['position', 'term'])
      .where('report_id', '=', report.report_id)
      .orderBy('position')
      .execute();
    expect(saved).toEqual([
      { position: 1, term: '58-08-2' },
      { position: 2, term: 'unobtainium' },
      { position: 3, term: 'zz-new-term' },
    ]);

    const other = await t.call({
      method: 'POST',
      url: REPORT,
      headers: authHeaders(login),
      payload: { ...payload, user_id: login.id + 1 },
    });
    expect(other.statusCode).toBe(403);
    expect(other.data.message).toBe('You may only report terms as yourself.');
    const count = await t.database.db.selectFrom('term_reports').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });

  it('answers 403 to a role without search and 401 without a token', async () => {
    const flat = await t.login(demoEmailForRole('FLAT_FILE_ONLY'));
    const payload = { listType: 'pubmed', fileName: 'a.txt', contentBase64: Buffer.from('1').toString('base64') };
    for (const [url, body] of [
      [VALIDATE, payload],
      [DOWNLOAD, { listType: 'pubmed', terms: ['1'] }],
      [REPORT, { user_id: flat.id, listType: 'pubmed', terms: ['1'] }],
    ] as const) {
      expect((await t.call({ method: 'POST', url, headers: authHeaders(flat), payload: body })).statusCode, url).toBe(403);
      expect((await t.call({ method: 'POST', url, payload: body })).statusCode, url).toBe(401);
    }
  });

  it('checks 100,000 terms in one upload within seconds', async () => {
    const { rows } = await sql<{ str_id: number }>`select str_id from structures order by str_id`.execute(t.database.db);
    const known = rows.map((r) => r.str_id);
    const maxId = known[known.length - 1] as number;
    const terms = [...known.map(String), ...Array.from({ length: 100_000 - known.length }, (_, i) => String(maxId + 1 + i))];
    const started = performance.now();
    const body = await validUpload('strid', 'many.txt', terms.join('\n'));
    const ms = performance.now() - started;
    console.info(`[uploads] ${kind}: 100,000 structure ids checked in ${Math.round(ms)} ms`);
    expect(body.total).toBe(100_000);
    expect(body.valid.length).toBe(known.length);
    expect(body.unidentified.length).toBe(100_000 - known.length);
    expect(ms).toBeLessThan(15_000);
  });
});
