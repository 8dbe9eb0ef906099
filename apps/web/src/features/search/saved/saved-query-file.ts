import { SAVED_QUERY_FORMAT, SavedQueryFileSchema } from '@kb/contracts/search';
import type { SavedQueryFile } from '@kb/contracts/search';

export type SavedQueryParse = { ok: true; file: SavedQueryFile } | { ok: false; message: string };

/** Saved queries are small; anything far bigger is not one (and would freeze the page to parse). */
export const SAVED_QUERY_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Reads the text of a file chosen with "Open query" (the file `bu/search/save/query` produced):
 * the contract's schema decides, and a wrong file gets a message saying what is wrong with it.
 */
export function parseSavedQueryText(text: string): SavedQueryParse {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This file is not a saved query: it is not a JSON file.' };
  }
  const format = typeof data === 'object' && data !== null ? (data as { format?: unknown }).format : undefined;
  if (format !== SAVED_QUERY_FORMAT) {
    return { ok: false, message: `This file is not a saved KB Search query (expected format ${SAVED_QUERY_FORMAT}).` };
  }
  const parsed = SavedQueryFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return { ok: false, message: `This saved query is damaged${where}: ${issue?.message ?? 'unexpected content'}.` };
  }
  return { ok: true, file: parsed.data };
}

/** A file name for a saved query: the user's name for it, without characters file systems refuse. */
export function savedQueryFileName(name: string): string {
  // Control characters go with the rest (no-control-regex forbids writing them in a pattern).
  const printable = [...name].filter((char) => char.charCodeAt(0) >= 32).join('');
  const base =
    printable
      .trim()
      .replace(/[\\/:*?"<>|]+/g, '-')
      .replace(/\s+/g, ' ')
      .slice(0, 100) || 'search';
  return base.toLowerCase().endsWith('.json') ? base : `${base}.json`;
}
