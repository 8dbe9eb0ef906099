import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_DATABASE, openTestDatabase } from '../../../test/harness.ts';
import type { TestDatabase } from '../../../test/harness.ts';
import { ChemReference, SUBSTRUCTURE_QUERIES } from '../../../test/chem-reference.ts';
import { readIndexSnapshot } from './index-snapshot.ts';
import { RdkitChemEngine } from './rdkit-engine.ts';

/*
 * The structure index kept in a local file between starts (index-snapshot.ts): an engine started
 * from the file a database read wrote finds exactly what RDKit finds molecule by molecule, and the
 * file is used only for the version it was written at; a damaged one sends the read to the
 * database and says why. Small shards (97 structures, two workers), as the parity test does.
 */
const byNumber = (a: number, b: number) => a - b;

describe.each(ONE_DATABASE)('structure index snapshot (%s)', (kind) => {
  let database: TestDatabase;
  let reference: ChemReference;
  let dir: string;
  let file: string;
  const engines: RdkitChemEngine[] = [];
  const errors: string[] = [];

  /** An engine on the snapshot file at `version`, ready, with what it logged. */
  async function started(version: string | null): Promise<{ engine: RdkitChemEngine; log: string[] }> {
    const log: string[] = [];
    const engine = new RdkitChemEngine(database.handle.db, {
      workers: 2,
      shardSize: 97,
      log: (message) => log.push(message),
      snapshot: { file, version: async () => version, onError: (message, error) => errors.push(`${message}: ${String(error)}`) },
    });
    engines.push(engine);
    engine.start();
    await engine.ready();
    return { engine, log };
  }
  /** The background write of a database read, finished (the file changed). */
  async function rewritten(since: number): Promise<void> {
    for (let i = 0; i < 400 && (!fs.existsSync(file) || fs.statSync(file).mtimeMs === since); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(fs.existsSync(file)).toBe(true);
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind, { demoChunks: 1 });
    reference = await ChemReference.load(database.handle.db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-index-snapshot-'));
    file = path.join(dir, 'structure-index.bin');
  }, 180_000);
  afterAll(async () => {
    reference?.close();
    for (const engine of engines) await engine.close();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes nothing while a load runs (no version)', async () => {
    const { log } = await started(null);
    expect(log.at(-1)).not.toMatch(/snapshot/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('starts from the file a database read wrote, and finds what RDKit finds', async () => {
    const first = await started('v1');
    expect(first.log.at(-1)).not.toMatch(/from the local snapshot/);
    await rewritten(0);
    const { engine, log } = await started('v1');
    expect(log.at(-1)).toMatch(/from the local snapshot/);
    expect(engine.status()).toMatchObject({
      state: 'ready',
      loaded: reference.structures.length,
      shards: Math.ceil(reference.structures.length / 97),
    });
    let found = 0;
    for (const { kind: queryKind, text } of SUBSTRUCTURE_QUERIES) {
      const hits = await engine.substructure({ kind: queryKind, text, desalt: true });
      expect(Array.from(hits.ids).sort(byNumber)).toEqual(reference.substructure(queryKind, text));
      found += hits.ids.length;
    }
    expect(found).toBeGreaterThan(100);
    const probe = reference.structures[Math.floor(reference.structures.length / 3)]!.smiles;
    const expected = reference.similarity(probe, 0.5, 1);
    const similar = await engine.similarity({ kind: 'smiles', text: probe, desalt: true }, { min: 0.5, max: 1 });
    expect(Array.from(similar.ids).sort(byNumber)).toEqual([...expected.keys()].sort(byNumber));
    similar.ids.forEach((id, i) => expect(similar.similarities![i]).toBe(expected.get(id)));
    expect(errors).toEqual([]);
  }, 120_000);

  it('reads the database for another version, and keeps that one', async () => {
    const before = fs.statSync(file).mtimeMs;
    const { log } = await started('v2');
    expect(log.at(-1)).not.toMatch(/from the local snapshot/);
    await rewritten(before);
    expect((await started('v2')).log.at(-1)).toMatch(/from the local snapshot/);
  }, 120_000);

  it('reads the database when the file is damaged, and says why', async () => {
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    const { engine, log } = await started('v2');
    expect(log.at(-1)).not.toMatch(/from the local snapshot/);
    expect(engine.status().loaded).toBe(reference.structures.length);
    expect(errors.join('\n')).toMatch(/not used; reading the database: Error: The structure index snapshot has no footer/);
  }, 120_000);

  it('loads the index when the snapshot cannot be written, and says why', async () => {
    const blocked = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocked, '');
    const log: string[] = [];
    const engine = new RdkitChemEngine(database.handle.db, {
      workers: 1,
      log: (message) => log.push(message),
      snapshot: {
        file: path.join(blocked, 'structure-index.bin'),
        version: async () => 'v3',
        onError: (message, error) => errors.push(`${message}: ${String(error)}`),
      },
    });
    engines.push(engine);
    engine.start();
    await engine.ready();
    expect(engine.status().loaded).toBe(reference.structures.length);
    for (let i = 0; i < 200 && !errors.some((e) => e.includes('not written')); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(errors.join('\n')).toMatch(/The structure index snapshot was not written: Error: .*ENOTDIR/);
    fs.rmSync(blocked);
  }, 120_000);

  it('refuses lengths in the file that the file cannot hold, before reading them', async () => {
    const whole = () => fs.existsSync(file) && fs.readFileSync(file).subarray(-4).toString() === 'KBIX';
    for (let i = 0; i < 400 && !whole(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const bytes = fs.readFileSync(file);
    const copy = path.join(dir, 'damaged-copy.bin');
    // A footer length of almost 4 GB (nothing that size may be allocated on the file's word).
    const longFooter = Buffer.from(bytes);
    longFooter.writeUInt32LE(0xfffffff0, longFooter.length - 8);
    fs.writeFileSync(copy, longFooter);
    await expect(readIndexSnapshot(copy, 'any')).rejects.toThrow(/footer is longer than the file/);
    // Bytes added before the footer: the shards the footer lists no longer fill the file.
    const footerBytes = bytes.readUInt32LE(bytes.length - 8);
    const tail = bytes.subarray(bytes.length - 8 - footerBytes);
    fs.writeFileSync(copy, Buffer.concat([bytes.subarray(0, bytes.length - 8 - footerBytes), Buffer.alloc(16), tail]));
    await expect(readIndexSnapshot(copy, 'any')).rejects.toThrow(/shards do not fill the file/);
    fs.rmSync(copy);
  });

  it('takes the rest from the database when a shard inside is damaged, and drops the file', async () => {
    // The database read of the test above wrote a whole file again (its footer ends in the magic).
    const whole = () => fs.existsSync(file) && fs.readFileSync(file).subarray(-4).toString() === 'KBIX';
    for (let i = 0; i < 400 && !whole(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(whole()).toBe(true);
    const bytes = fs.readFileSync(file);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    const { engine } = await started('v2');
    expect(engine.status()).toMatchObject({ state: 'ready', loaded: reference.structures.length });
    expect(errors.join('\n')).toMatch(/damaged; the rest of the index comes from the database: Error: .*fails its checksum/);
    for (const { kind: queryKind, text } of SUBSTRUCTURE_QUERIES.slice(0, 8)) {
      const hits = await engine.substructure({ kind: queryKind, text, desalt: true });
      expect(Array.from(hits.ids).sort(byNumber)).toEqual(reference.substructure(queryKind, text));
    }
    expect(fs.existsSync(file)).toBe(false);
  }, 120_000);
});
