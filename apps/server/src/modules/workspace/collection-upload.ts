import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { CollectionUploadRequestSchema, CollectionUploadResult } from '@kb/contracts/workspace';
import { COLLECTION_UPLOAD_MAX_ENTRIES, COLLECTION_UPLOAD_MAX_REPORTED } from '@kb/contracts/workspace';
import type { Database } from '../../db/schema.ts';
import type { AuthContext } from '../../http/auth-hook.ts';
import { badRequest } from '../../http/errors.ts';
import { ChemInputError } from '../chemistry/chem-engine.ts';
import type { ChemEngine } from '../chemistry/chem-engine.ts';
import { chemInputMessage } from '../chemistry/chem-query.ts';
import type { CollectionsService } from './collections-service.ts';
import { objectRights } from './workspace-access.ts';
import { requireEdit } from './workspace-objects.ts';

type UploadRequest = z.infer<typeof CollectionUploadRequestSchema>;

/** One entry of an upload: a line (SMILES, ids) or a record (SDF), numbered from 1. */
interface UploadEntry {
  line: number;
  /** What the report shows: the line, or the record's title line. */
  text: string;
  /** What is read: a SMILES, a molfile or an id. */
  value: string;
}

const NOT_IN_KB = 'not in the knowledge base';
const NOT_AN_ID = 'not a structure id (an id is a whole number)';
/** Structures RDKit reads at once (the engine's workers share them). */
const CANONICAL_CONCURRENCY = 8;
/** Canonical SMILES looked up per query. */
const LOOKUP_BATCH = 1000;
const SHOWN = 200;
/**
 * The longest an upload's structures are read: past it the upload is refused and nothing added.
 * A file of ordinary structures reads in seconds (20,000 at a few hundred a second per worker);
 * this bounds a file of pathological ones, each within the engine's limits but slow.
 */
const READ_TIME_LIMIT_MS = 120_000;

const shown = (text: string) => (text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text);

/**
 * The entries of an upload's text. SMILES: one a line, a name may follow after white space; blank
 * lines and `#` comments are skipped. SDF: records ended by `$$$$`. Ids: whole numbers, one or more
 * a line (separated by white space, commas or semicolons).
 */
function uploadEntries(format: UploadRequest['format'], text: string): UploadEntry[] {
  const entries: UploadEntry[] = [];
  if (format === 'sdf') {
    const records = text.split(/^\$\$\$\$[^\S\n]*\r?$/m);
    let number = 0;
    for (const record of records) {
      // The line break that ended the previous record's `$$$$` starts this one.
      const body = record.replace(/^\r?\n/, '');
      if (body.trim() === '') continue;
      number += 1;
      const title = body.split(/\r?\n/, 1)[0]?.trim() ?? '';
      entries.push({ line: number, text: shown(title || `record ${number}`), value: body });
    }
    return entries;
  }
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (format === 'smiles') {
      entries.push({ line: index + 1, text: shown(line), value: line.split(/\s+/, 1)[0]! });
    } else {
      for (const token of line.split(/[\s,;]+/)) if (token !== '') entries.push({ line: index + 1, text: shown(token), value: token });
    }
  });
  return entries;
}

/**
 * Upload of compounds into a collection (docs/workspace.md "Collections"): every SMILES or molfile
 * is canonicalised by RDKit as the exact structure search does (chemistry/structure-lookups.ts) and
 * matched against `structures.canonical_smiles`; ids must be structures of the knowledge base.
 * Entries that match nothing are reported with the reason, as term uploads report theirs.
 */
export class CollectionUpload {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: ChemEngine,
    private readonly collections: CollectionsService,
  ) {}

  async upload(auth: AuthContext, id: number, request: UploadRequest): Promise<CollectionUploadResult> {
    const rights = await objectRights(this.db, 'collection', id, auth.userId, 'collection');
    requireEdit('collection', rights.access);
    const entries = uploadEntries(request.format, request.text);
    const what = request.format === 'sdf' ? 'records' : request.format === 'ids' ? 'ids' : 'SMILES lines';
    if (entries.length === 0) throw badRequest(`The file holds no ${what}: every line is blank or a comment.`);
    if (entries.length > COLLECTION_UPLOAD_MAX_ENTRIES) {
      throw badRequest(
        `The file holds ${entries.length.toLocaleString('en-US')} ${what}; an upload reads at most ${COLLECTION_UPLOAD_MAX_ENTRIES.toLocaleString('en-US')}. Split it into several files.`,
        { max: COLLECTION_UPLOAD_MAX_ENTRIES, entries: entries.length },
      );
    }
    const found = request.format === 'ids' ? await this.matchIds(entries) : await this.matchStructures(entries, request.format);
    const unmatched: CollectionUploadResult['unmatched'] = [];
    const strIds = new Set<number>();
    let matched = 0;
    entries.forEach((entry, index) => {
      const result = found[index]!;
      if (typeof result === 'number') {
        matched += 1;
        strIds.add(result);
      } else {
        unmatched.push({ line: entry.line, text: entry.text, reason: result });
      }
    });
    // Nothing matched: nothing is added, but the answer still says how many the collection holds.
    const changed = await this.collections.addStrIds(
      auth,
      id,
      [...strIds].sort((a, b) => a - b),
    );
    return {
      ...changed,
      entries: entries.length,
      matched,
      unmatchedCount: unmatched.length,
      unmatched: unmatched.slice(0, COLLECTION_UPLOAD_MAX_REPORTED),
    };
  }

  /** Per entry: its structure id, or why it has none. */
  private async matchIds(entries: readonly UploadEntry[]): Promise<(number | string)[]> {
    const ids = entries.map((entry) => (/^\d{1,15}$/.test(entry.value) ? Number(entry.value) : null));
    const wanted = [...new Set(ids.filter((value): value is number => value !== null && value > 0))];
    const known = new Set<number>();
    for (let start = 0; start < wanted.length; start += LOOKUP_BATCH) {
      const { rows } = await sql<{ str_id: number }>`SELECT str_id FROM structures
        WHERE str_id = ANY(${wanted.slice(start, start + LOOKUP_BATCH)}::bigint[])`.execute(this.db);
      for (const row of rows) known.add(Number(row.str_id));
    }
    return ids.map((value) => (value === null ? NOT_AN_ID : known.has(value) ? value : NOT_IN_KB));
  }

  /**
   * Per entry: its structure id, or why it has none. Read as written first; a mixture (a salt, a
   * solvate) that is not in the knowledge base as such is tried again as its largest fragment, as
   * the exact search's default "desalted" does.
   */
  private async matchStructures(entries: readonly UploadEntry[], format: 'smiles' | 'sdf'): Promise<(number | string)[]> {
    const kind = format === 'sdf' ? 'molfile' : 'smiles';
    const results: (number | string)[] = new Array(entries.length);
    const canonical = await this.canonicalise(entries, kind, false);
    const first = await this.lookup(canonical.filter((value): value is { smiles: string } => 'smiles' in value).map((v) => v.smiles));
    const retry: number[] = [];
    canonical.forEach((value, index) => {
      if ('error' in value) results[index] = value.error;
      else if (first.has(value.smiles)) results[index] = first.get(value.smiles)!;
      else if (value.smiles.includes('.')) retry.push(index);
      else results[index] = NOT_IN_KB;
    });
    if (retry.length) {
      const desalted = await this.canonicalise(
        retry.map((index) => entries[index]!),
        kind,
        true,
      );
      const second = await this.lookup(desalted.filter((value): value is { smiles: string } => 'smiles' in value).map((v) => v.smiles));
      desalted.forEach((value, i) => {
        results[retry[i]!] = 'smiles' in value && second.has(value.smiles) ? second.get(value.smiles)! : NOT_IN_KB;
      });
    }
    return results;
  }

  /** RDKit's canonical SMILES per entry, or the chemist-facing reason it could not be read. */
  private async canonicalise(
    entries: readonly UploadEntry[],
    kind: 'smiles' | 'molfile',
    desalt: boolean,
  ): Promise<({ smiles: string } | { error: string })[]> {
    const out: ({ smiles: string } | { error: string })[] = new Array(entries.length);
    const deadline = Date.now() + READ_TIME_LIMIT_MS;
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < entries.length; index = next++) {
        if (Date.now() > deadline) {
          throw badRequest(
            `Reading the file's structures took longer than ${READ_TIME_LIMIT_MS / 60_000} minutes; nothing was added. Split it into smaller files.`,
          );
        }
        const entry = entries[index]!;
        if (kind === 'molfile' && !/M {2}END/.test(entry.value)) {
          out[index] = { error: 'not a molfile: the record has no "M  END" line' };
          continue;
        }
        try {
          const described = await this.engine.describe({ kind, text: entry.value, desalt });
          out[index] = described.smiles ? { smiles: described.smiles } : { error: 'RDKit read no molecule from it' };
        } catch (error) {
          if (!(error instanceof ChemInputError)) throw error;
          out[index] = { error: chemInputMessage({ inputType: kind, value: entry.value }, error.message) };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CANONICAL_CONCURRENCY, entries.length) }, worker));
    return out;
  }

  /** Structure ids by canonical SMILES (through the md5 index, as the exact search looks them up). */
  private async lookup(smiles: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const distinct = [...new Set(smiles)];
    for (let start = 0; start < distinct.length; start += LOOKUP_BATCH) {
      const batch = distinct.slice(start, start + LOOKUP_BATCH);
      const md5s = batch.map((text) => crypto.createHash('md5').update(text, 'utf8').digest('hex'));
      const { rows } = await sql<{ str_id: number; canonical_smiles: string }>`SELECT str_id, canonical_smiles FROM structures
        WHERE md5(canonical_smiles) = ANY(${md5s}::text[]) ORDER BY str_id`.execute(this.db);
      // The lowest id when the knowledge base holds one structure twice; equal text, not only equal md5.
      for (const row of rows) if (!found.has(row.canonical_smiles)) found.set(row.canonical_smiles, Number(row.str_id));
    }
    return found;
  }
}
