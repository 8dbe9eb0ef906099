import type { Selection } from '@kb/contracts/results';
import { SelectionSchema } from '@kb/contracts/results';
import { ResultTabKeySchema } from '@kb/contracts/result-tabs';
import type { SheetSource } from '@kb/contracts/sheet';
import { SheetSourceSchema } from '@kb/contracts/sheet';
import { z } from 'zod';

/**
 * The sheet's compounds as the address says them, so a sheet can be bookmarked, reloaded and
 * opened from anywhere by a link:
 * - `?session=<uuid>&tab=structuretab` — a results tab's rows as filtered; `&pick=<token>` adds the
 *   ticked rows, kept in this browser's session storage (a selection can hold thousands of ids,
 *   too many for an address);
 * - `?collection=<id>` — a collection;
 * - `?ids=12,15,20` — structure ids;
 * - `?source=<json>` — any source of the contract, written out.
 */
export type ParsedSheetSource = { ok: true; source: SheetSource } | { ok: false; message: string };

/** What the ticked rows of a tab are, kept under a token for the sheet to read. */
export const PickedRowsSchema = z.object({ selection: SelectionSchema, strIdList: z.array(z.number().int().positive()).optional() });
export type PickedRows = z.infer<typeof PickedRowsSchema>;

/** Reads the ticked rows kept under a token (null: none there, e.g. another browser opened the link). */
export type PickedRowsLookup = (token: string) => PickedRows | null;

const MAX_IDS_IN_ADDRESS = 2_000;

function fail(message: string): ParsedSheetSource {
  return { ok: false, message };
}

function parseIds(text: string): ParsedSheetSource {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return fail('The address names no structure ids.');
  if (parts.length > MAX_IDS_IN_ADDRESS)
    return fail(`An address holds at most ${MAX_IDS_IN_ADDRESS.toLocaleString('en-US')} ids; use a collection for more.`);
  const ids = parts.map(Number);
  if (ids.some((id) => !Number.isInteger(id) || id <= 0)) return fail('Structure ids are whole numbers above zero.');
  return { ok: true, source: { kind: 'ids', strIds: [...new Set(ids)] } };
}

function parseSession(params: URLSearchParams, lookup: PickedRowsLookup): ParsedSheetSource {
  const sessionid = params.get('session') ?? '';
  const tab = ResultTabKeySchema.safeParse(params.get('tab') ?? 'structuretab');
  if (!tab.success) return fail(`“${params.get('tab')}” is not a results tab.`);
  const token = params.get('pick');
  const picked = token ? lookup(token) : null;
  if (token && !picked)
    return fail('The ticked rows of this link were kept in another browser tab; open the sheet again from the results.');
  const candidate = {
    kind: 'session' as const,
    sessionid,
    tab: tab.data,
    ...(picked ? { selection: picked.selection } : {}),
    ...(picked?.strIdList ? { strIdList: picked.strIdList } : {}),
  };
  const parsed = SheetSourceSchema.safeParse(candidate);
  return parsed.success ? { ok: true, source: parsed.data } : fail('The address names no valid search session.');
}

function parseJson(text: string): ParsedSheetSource {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('The sheet’s source in the address is not readable.');
  }
  const parsed = SheetSourceSchema.safeParse(value);
  return parsed.success ? { ok: true, source: parsed.data } : fail(parsed.error.issues[0]?.message ?? 'The sheet’s source is not valid.');
}

/** The source an address names, or why it names none. */
export function parseSheetSource(params: URLSearchParams, lookup: PickedRowsLookup): ParsedSheetSource {
  const source = params.get('source');
  if (source) return parseJson(source);
  const collection = params.get('collection');
  if (collection !== null) {
    const id = Number(collection);
    return Number.isInteger(id) && id > 0
      ? { ok: true, source: { kind: 'collection', collectionId: id } }
      : fail('The collection id must be a whole number above zero.');
  }
  const ids = params.get('ids');
  if (ids !== null) return parseIds(ids);
  if (params.has('session')) return parseSession(params, lookup);
  return fail('Open a sheet from a result set or a collection: the address names no compounds.');
}

/** The address of a sheet of `source`; ticked rows of a session go under `pickToken`. */
export function sheetHref(source: SheetSource, pickToken?: string): string {
  const params = new URLSearchParams();
  if (source.kind === 'collection') params.set('collection', String(source.collectionId));
  else if (source.kind === 'ids' && source.strIds.length <= MAX_IDS_IN_ADDRESS) params.set('ids', source.strIds.join(','));
  else if (source.kind === 'session') {
    params.set('session', source.sessionid);
    params.set('tab', source.tab);
    if (pickToken) params.set('pick', pickToken);
  } else params.set('source', JSON.stringify(source));
  return `/sheet?${params.toString()}`;
}

/** True when a tab's selection picks something (ticked rows, or "select all"). */
export function picksRows(selection: Selection | null | undefined): boolean {
  return Boolean(selection && (selection.selectAll || selection.selectedIds.length > 0));
}
