import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_DATABASE, startTestApp } from '../../../../test/harness.ts';
import type { TestApp } from '../../../../test/harness.ts';
import { beginLoad, finishLoad, loadsVersion } from '../../knowledge-base/kb-loads.ts';
import { readSnapshot, writeSnapshot } from './column-snapshot.ts';
import { loadKbColumns } from './kb-columns.ts';
import { RoaringBitmap32 } from './roaring.ts';
import type { KbColumns } from './kb-columns.ts';

/** Everything read from the database, in comparable form (the reverse lists are rebuilt from it). */
function readParts(columns: KbColumns) {
  const { fields } = columns;
  return {
    arrays: [
      columns.actIds,
      columns.actStr,
      columns.actGvk,
      columns.actAssay,
      columns.actRef,
      columns.actTarget,
      columns.gvkStr,
      columns.gvkRef,
      columns.clinicalStr,
    ].map((a) => Array.from(a)),
    fields: [fields.type, fields.uom, fields.prefix, fields.value, fields.micro, fields.mechanism, fields.degrader, fields.ligase].map(
      (a) => Array.from(a),
    ),
    vocabularies: [fields.types, fields.uoms, fields.prefixes, fields.mechanisms, fields.degraders, fields.ligases].map((v) => v.names),
    all: [columns.allActivities, columns.allStructures, columns.allClinical].map((b) => b.toArray()),
    byTarget: [Array.from(columns.byTarget.start), Array.from(columns.byTarget.ids)],
  };
}

/**
 * The search columns kept in a local file between starts (SEARCH_COLUMN_SNAPSHOT): read back they
 * are the same as from the database, and they are used only for the same data — a load that ended,
 * another file, or a damaged file sends the read to the database.
 */
describe.each(ONE_DATABASE)('search column snapshot on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let file: string;
  const errors: unknown[] = [];
  const load = async () =>
    loadKbColumns(t.database.db, await loadsVersion(t.database.db), {
      snapshotFile: file,
      onError: (_message, error) => errors.push(error),
    });
  /** The background write of a read from the database, finished. */
  const written = async () => {
    for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(fs.existsSync(file)).toBe(true);
  };

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { demoChunks: 1 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-snapshot-'));
    file = path.join(dir, 'search-columns.bin');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the same columns back from the snapshot a database read wrote', async () => {
    const first = await load();
    expect(first.source).toBe('database');
    await written();
    const second = await load();
    expect(second.source).toBe('snapshot');
    expect(readParts(second.columns)).toEqual(readParts(first.columns));
    expect(second.columns.actIds.length).toBeGreaterThan(1_000);
    expect(errors).toEqual([]);
  });

  it('keeps the structure properties beside them, and reads them back the same', async () => {
    const first = (await load()).columns.properties;
    await first.read();
    expect(first.source).toBe('database');
    const propertyFile = path.join(dir, 'structure-properties.bin');
    for (let i = 0; i < 200 && !fs.existsSync(propertyFile); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const second = (await load()).columns.properties;
    await second.read();
    expect(second.source).toBe('snapshot');
    const values = (properties: typeof first) => [...properties.loaded!.entries()].map(([column, array]) => [column, Array.from(array)]);
    expect(values(second)).toEqual(values(first));
    // Real values, not only NaN: molecular weight is set for every demo structure.
    expect(second.loaded!.get('mol_weight')!.filter((value) => value > 0).length).toBeGreaterThan(100);
    // A damaged file is reported and the database read instead.
    fs.truncateSync(propertyFile, 100);
    const third = (await load()).columns.properties;
    await third.read();
    expect(third.source).toBe('database');
    expect(values(third)).toEqual(values(first));
    expect(String(errors.at(-1))).toMatch(/shorter than its header|does not fit|is damaged \(its header is longer than the file\)/);
    errors.length = 0;
  });

  it('reads from the database again once a load has ended, with its rows, and keeps the new version', async () => {
    const before = (await load()).columns.actIds.length;
    // A load of ten new activities (copies of existing ones), as an import makes it.
    const db = t.database.db;
    const loadId = await beginLoad(db, { kind: 'update', label: 'snapshot test' });
    await sql`INSERT INTO activities (str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, activity_value, load_id)
      SELECT str_id, gvk_id, assay_id, ref_id, target_id, std_activity_type, activity_value, ${loadId}::bigint FROM activities ORDER BY act_id LIMIT 10`.execute(
      db,
    );
    await finishLoad(db, loadId, 'complete', { changes: [], quality: null, notes: [] });
    const modified = fs.statSync(file).mtimeMs;
    const after = await load();
    expect(after.source).toBe('database');
    expect(after.columns.actIds.length).toBe(before + 10);
    for (let i = 0; i < 200 && fs.statSync(file).mtimeMs === modified; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const again = await load();
    expect(again.source).toBe('snapshot');
    expect(again.columns.actIds.length).toBe(before + 10);
  });

  it('reads from the database when a byte inside is damaged (checksums), and says why', async () => {
    const bytes = fs.readFileSync(file);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    const read = await load();
    expect(read.source).toBe('database');
    expect(String(errors.at(-1))).toMatch(/fails its checksum/);
    expect(read.columns.actIds.length).toBeGreaterThan(1_000);
    // The database read writes a whole file again.
    for (let i = 0; i < 200 && fs.readFileSync(file).equals(bytes); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect((await load()).source).toBe('snapshot');
  });

  it('reads from the database when the file is damaged, and says why', async () => {
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    const read = await load();
    expect(read.source).toBe('database');
    expect(String(errors.at(-1))).toMatch(/shorter than its header|is damaged \(its (header is longer than|parts do not fill) the file\)/);
    expect(read.columns.actIds.length).toBeGreaterThan(1_000);
  });
});

describe('search column snapshot file', () => {
  it("reads back a file whose last part is not a multiple of 8 bytes long (an imported release's columns)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-snapshot-odd-'));
    try {
      const file = path.join(dir, 'columns.bin');
      // Serialised sizes vary with the ids; keep adding until the last bitmap's length is odd.
      const last = new RoaringBitmap32([1]);
      for (let id = 3; last.serialize('portable').length % 8 === 0; id += 7) last.add(id);
      const content = { arrays: [Int32Array.of(5, 7, 9)], vocabularies: [['IC50', null]], bitmaps: [new RoaringBitmap32([2, 4]), last] };
      await writeSnapshot(file, 'key-1', content);
      const read = await readSnapshot(file, 'key-1');
      expect(read).not.toBeNull();
      expect(Array.from(read!.arrays[0]!)).toEqual([5, 7, 9]);
      expect(read!.vocabularies).toEqual([['IC50', null]]);
      expect(read!.bitmaps.map((b) => b.toArray())).toEqual([[2, 4], last.toArray()]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
