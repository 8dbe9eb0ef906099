import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionUploadResult } from '@kb/contracts/workspace';
import { COLLECTION_UPLOAD_MAX_ENTRIES, COLLECTION_UPLOAD_MAX_REPORTED } from '@kb/contracts/workspace';
import { DATABASES, startTestApp } from '../../../test/harness.ts';
import type { TestApp } from '../../../test/harness.ts';
import { caller, workspacePeople } from './workspace.test-support.ts';
import type { WorkspacePeople } from './workspace.test-support.ts';

/**
 * Uploads into a collection (docs/workspace.md "Collections"): SMILES, SDF and ids matched against
 * the knowledge base's structures through RDKit's canonical SMILES; what matches nothing is
 * reported with its line and reason, and the counts add up.
 */
describe.each(DATABASES)('workspace collection uploads on %s', (kind) => {
  let t: TestApp;
  let p: WorkspacePeople;
  let api: ReturnType<typeof caller>;
  /** Structures without a '.' (one molecule), lowest id first. */
  let known: { strId: number; smiles: string }[];
  const C = '/api/workspace/collections';

  const newCollection = async () => {
    const answer = await api.post(C, p.logins.owner, { name: `Upload ${Math.random()}` });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data.id as number;
  };
  const upload = async (id: number, format: string, text: string) => {
    const answer = await api.post(`${C}/${id}/upload`, p.logins.owner, { format, text, fileName: `list.${format}` });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.data as unknown as CollectionUploadResult;
  };
  const itemIds = async (id: number) =>
    (await t.database.db.selectFrom('collection_items').select('str_id').where('collection_id', '=', id).orderBy('str_id').execute()).map(
      (row) => Number(row.str_id),
    );

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    api = caller(t);
    p = await workspacePeople(t, 'up');
    const rows = await t.database.db
      .selectFrom('structures')
      .select(['str_id', 'canonical_smiles'])
      .where('canonical_smiles', 'not like', '%.%')
      .orderBy('str_id')
      .limit(6)
      .execute();
    known = rows.map((row) => ({ strId: Number(row.str_id), smiles: row.canonical_smiles }));
  }, 180_000);
  afterAll(() => t?.close());

  it('SMILES: names, comments and blanks; canonicalised and matched; salts as their parent; unreadable and unknown reported', async () => {
    const id = await newCollection();
    const text = [
      '# my hits',
      `${known[0]!.smiles} first-hit`,
      '',
      `${known[1]!.smiles}\tsecond hit with spaces`,
      `${known[2]!.smiles}.Cl`,
      'C1CC',
      'FC(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)I not-here',
      `  ${known[0]!.smiles}  `,
    ].join('\r\n');
    const result = await upload(id, 'smiles', text);
    expect(result).toMatchObject({ entries: 6, matched: 4, unmatchedCount: 2, changed: 3, unchanged: 0, compounds: 3 });
    expect(result.unmatched).toHaveLength(2);
    expect(result.unmatched[0]).toMatchObject({ line: 6, text: 'C1CC' });
    expect(result.unmatched[0]!.reason).toMatch(/^RDKit could not read the SMILES "C1CC"/);
    expect(result.unmatched[1]).toMatchObject({ line: 7, reason: 'not in the knowledge base' });
    expect(await itemIds(id)).toEqual([known[0]!.strId, known[1]!.strId, known[2]!.strId]);
    // Again: all in already.
    expect(await upload(id, 'smiles', known[0]!.smiles)).toMatchObject({ entries: 1, matched: 1, changed: 0, unchanged: 1, compounds: 3 });
  });

  it('inputs the engine refuses (too long, too many atoms) or cannot read are reported, never a failure of the file', async () => {
    const id = await newCollection();
    const result = await upload(id, 'smiles', ['C'.repeat(2_001), 'C'.repeat(300), 'c1ccccc1[Xx]', 'C(((((C', known[0]!.smiles].join('\n'));
    expect(result).toMatchObject({ entries: 5, matched: 1, unmatchedCount: 4, changed: 1, compounds: 1 });
    expect(result.unmatched.map((row) => row.line)).toEqual([1, 2, 3, 4]);
    expect(result.unmatched[0]!.reason).toMatch(/2,001 characters.*at most 2,000/);
    expect(result.unmatched[1]!.reason).toMatch(/atoms/);
    expect(result.unmatched[0]!.text.length).toBeLessThanOrEqual(200);
    for (const row of result.unmatched.slice(2)) expect(row.reason).toMatch(/^RDKit could not read the SMILES/);
  });

  it('SDF: records split on $$$$, molfiles read by RDKit; a record that is no molfile is reported by number and title', async () => {
    const id = await newCollection();
    const blocks = await t.app.services.chemEngine.molblocks([known[3]!.smiles, known[4]!.smiles]);
    const record = (title: string, block: string) =>
      `${title}\n${block.split('\n').slice(1).join('\n').trimEnd()}\n> <NAME>\n${title}\n\n$$$$\n`;
    const sdf = record('Alpha', blocks[0]!) + 'Broken\n  no counts line\n\n$$$$\n' + record('Beta', blocks[1]!);
    const result = await upload(id, 'sdf', sdf);
    expect(result).toMatchObject({ entries: 3, matched: 2, unmatchedCount: 1, changed: 2, compounds: 2 });
    expect(result.unmatched[0]).toMatchObject({ line: 2, text: 'Broken' });
    expect(result.unmatched[0]!.reason).toMatch(/molfile/);
    expect(await itemIds(id)).toEqual([known[3]!.strId, known[4]!.strId]);
  });

  it('ids: whole numbers (several a line); anything else and unknown ids reported; at most the reported limit listed', async () => {
    const id = await newCollection();
    const result = await upload(id, 'ids', `${known[0]!.strId}, ${known[5]!.strId}\nabc\n999999999\n${known[0]!.strId}\n`);
    expect(result).toMatchObject({ entries: 5, matched: 3, unmatchedCount: 2, changed: 2, unchanged: 0, compounds: 2 });
    expect(result.unmatched).toEqual([
      { line: 2, text: 'abc', reason: expect.stringMatching(/^not a structure id/) },
      { line: 3, text: '999999999', reason: 'not in the knowledge base' },
    ]);
    const many = await upload(id, 'ids', Array.from({ length: COLLECTION_UPLOAD_MAX_REPORTED + 100 }, (_, i) => `x${i}`).join('\n'));
    expect(many).toMatchObject({ entries: 600, matched: 0, unmatchedCount: 600, changed: 0, compounds: 2 });
    expect(many.unmatched).toHaveLength(COLLECTION_UPLOAD_MAX_REPORTED);
    expect(many.unmatched.at(-1)!.line).toBe(COLLECTION_UPLOAD_MAX_REPORTED);
  });

  it('refuses a file of too many entries before reading any, an empty one, and a collection not theirs', async () => {
    const id = await newCollection();
    const lines = Array.from({ length: COLLECTION_UPLOAD_MAX_ENTRIES + 1 }, () => String(known[0]!.strId)).join('\n');
    const tooMany = await api.post(`${C}/${id}/upload`, p.logins.owner, { format: 'ids', text: lines });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.data.message).toContain('20,001');
    expect(await itemIds(id)).toEqual([]);
    const empty = await api.post(`${C}/${id}/upload`, p.logins.owner, { format: 'smiles', text: '# nothing\n\n' });
    expect(empty.statusCode).toBe(400);
    expect((await api.post(`${C}/${id}/upload`, p.logins.outsider, { format: 'smiles', text: known[0]!.smiles })).statusCode).toBe(404);
    expect((await api.post(`${C}/${id}/upload`, p.logins.reader, { format: 'smiles', text: known[0]!.smiles })).statusCode).toBe(404);
    expect(await itemIds(id)).toEqual([]);
  });
});
