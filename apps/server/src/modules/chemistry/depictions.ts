import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DepictionParams } from '@kb/contracts/chemistry';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { ChemInputError, ChemQueryRefused } from './chem-engine.ts';
import type { ChemEngine } from './chem-engine.ts';

/** Bump when the drawing options change: cached copies in browsers are then redrawn. */
const DRAWING_VERSION = 'rdkit-svg-2';
const CACHE_ENTRIES = 5000;

interface Resolved {
  kind: 'smiles' | 'smarts' | 'molfile';
  text: string;
  /** A stored structure (by id): looser limits than a typed one. */
  stored: boolean;
  highlight: { kind: 'smiles' | 'smarts'; text: string; mode: 'match' | 'rest' } | null;
  align: { kind: 'smiles' | 'smarts'; text: string } | null;
  width: number;
  height: number;
}

/**
 * SVG depictions drawn by RDKit in the engine's workers. The ETag is a hash of what is drawn
 * (structure text, highlight and its mode, size, drawing version), so a browser's copy is confirmed (304)
 * without drawing, and the server keeps the most recent drawings in memory.
 */
export class DepictionService {
  private readonly cache = new Map<string, string>();

  constructor(
    private readonly engine: ChemEngine,
    private readonly db: Kysely<Database>,
  ) {}

  /** What to draw, and its ETag; a stored structure is read by id (404 when unknown). */
  async resolve(query: DepictionParams): Promise<{ input: Resolved; etag: string }> {
    // The mode is part of `input`, hence of the ETag and the cache key: both modes of one picture coexist.
    const highlight = query.highlight ? { kind: query.highlightKind, text: query.highlight, mode: query.highlightMode } : null;
    const size = { width: query.w, height: query.h, align: query.align ? { kind: query.alignKind, text: query.align } : null };
    let input: Resolved;
    if (query.strId !== undefined) {
      const row = await this.db.selectFrom('structures').select('canonical_smiles').where('str_id', '=', query.strId).executeTakeFirst();
      if (!row) throw notFound(`There is no structure ${query.strId}.`);
      input = { kind: 'smiles', text: row.canonical_smiles, stored: true, highlight, ...size };
    } else if (query.molfile) input = { kind: 'molfile', text: query.molfile, stored: false, highlight, ...size };
    else if (query.smarts) input = { kind: 'smarts', text: query.smarts, stored: false, highlight, ...size };
    else input = { kind: 'smiles', text: query.smiles ?? '', stored: false, highlight, ...size };
    const etag = `"${crypto
      .createHash('sha1')
      .update(JSON.stringify([DRAWING_VERSION, input]))
      .digest('base64url')}"`;
    return { input, etag };
  }

  async svg(input: Resolved, etag: string): Promise<string> {
    const cached = this.cache.get(etag);
    if (cached) {
      // Most recently used last: the oldest entry is the first to go.
      this.cache.delete(etag);
      this.cache.set(etag, cached);
      return cached;
    }
    let svg: string;
    try {
      svg = await this.engine.depict(
        { kind: input.kind, text: input.text },
        { width: input.width, height: input.height, highlight: input.highlight, stored: input.stored, align: input.align },
      );
    } catch (error) {
      // A limit, a trap or the watchdog: the message is whole.
      if (error instanceof ChemQueryRefused) throw badRequest(error.message);
      if (error instanceof ChemInputError)
        throw badRequest(`RDKit could not draw this ${input.kind === 'molfile' ? 'molfile' : input.kind.toUpperCase()}: ${error.message}`);
      throw error;
    }
    this.cache.set(etag, svg);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    return svg;
  }
}
