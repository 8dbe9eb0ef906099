import { LEAFLET_ID_TYPES, SESSION_ID_PATTERN, referenceLeafletLink, sessionIdFromSid, structureLeafletLink } from '@kb/contracts/leaflets';
import type { LeafletIdType, ReferenceDocument } from '@kb/contracts/leaflets';
import { formatNumber } from '../../app/format/number-format.ts';
import { formatUnit } from '../../app/format/unit-format.ts';

/** What a `/leaflet/{idType}/{id}` link names, or why it names nothing. */
export type CompoundRoute = { ok: true; idType: LeafletIdType; id: number } | { ok: false; message: string };

/** Positive whole ids only: "12" → 12; "12a", "0", "-3" → null. */
function parseId(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

export function parseCompoundRoute(idType: string | undefined, id: string | undefined): CompoundRoute {
  const type = LEAFLET_ID_TYPES.find((t) => t === idType);
  if (!type) return { ok: false, message: `“${idType ?? ''}” is not a kind of leaflet: the link must name a structure, compound or dcm.` };
  const parsed = parseId(id);
  if (parsed === null) return { ok: false, message: `“${id ?? ''}” is not an id: ids are whole numbers above zero.` };
  return { ok: true, idType: type, id: parsed };
}

/**
 * What a reference leaflet link names: `/leaflet/reference/{rid}?sid=…` (permanent) or the older
 * `/leafletreference/{sid}/{rid}`. The search part is optional context: one that is not a search
 * id at all (`sidProblem`) is left out and said in words, never a reason not to show the reference.
 */
export type ReferenceRoute =
  | { ok: true; refId: number; sessionId: string | null; sidProblem: string | null }
  | { ok: false; message: string };

export function parseReferenceRoute(sid: string | null | undefined, rid: string | undefined): ReferenceRoute {
  const refId = parseId(rid);
  if (refId === null) return { ok: false, message: `“${rid ?? ''}” is not a reference id: ids are whole numbers above zero.` };
  const sessionId = sessionIdFromSid(sid);
  if (sessionId !== null && !SESSION_ID_PATTERN.test(sessionId)) {
    const shown = sessionId.length > 40 ? `${sessionId.slice(0, 40)}…` : sessionId;
    return {
      ok: true,
      refId,
      sessionId: null,
      sidProblem: `The search named in this link (“${shown}”) is not a search id, so the reference is shown without a search.`,
    };
  }
  return { ok: true, refId, sessionId, sidProblem: null };
}

/** The permanent link of a reference leaflet; with the search it was opened from as `?sid=` (used only by that search's owner). */
export function referenceLeafletPath(refId: number, sessionId: string | null = null): string {
  return referenceLeafletLink(refId, sessionId);
}

export function structureLeafletPath(strId: number): string {
  return structureLeafletLink(strId);
}

const significant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });
// Counts and plain numbers come from app/format; potencies and activity values keep three
// significant digits, the precision assays report them with.
/** A potency from its µM value, in the unit chemists read it in: below 1 µM as nM. */
export function formatPotency(microMolar: number | null): string {
  if (microMolar === null || !Number.isFinite(microMolar)) return '—';
  if (microMolar < 1) return `${significant.format(microMolar * 1000)} nM`;
  return `${significant.format(microMolar)} µM`;
}

/** "> 30,000 nM", "12.5 %", "45 µM" (the "=" prefix goes without saying; the unit as a chemist writes it). */
export function formatActivityValue(prefix: string | null, value: number | null, uom: string | null): string {
  if (value === null) return '—';
  const sign = prefix && prefix !== '=' ? `${prefix} ` : '';
  const unit = formatUnit(uom);
  return `${sign}${significant.format(value)}${unit ? ` ${unit}` : ''}`;
}

/** Items grouped by a key, groups in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Array<[string, T[]]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.entries()];
}

export function doiUrl(doi: string): string {
  return `https://doi.org/${encodeURI(doi)}`;
}

export function pubmedUrl(pubmedId: number): string {
  return `https://pubmed.ncbi.nlm.nih.gov/${pubmedId}/`;
}

type CitationFields = Pick<
  ReferenceDocument,
  'ref_type' | 'journal_patent_name' | 'year' | 'volume' | 'issue' | 'start_page' | 'end_page' | 'patent_no' | 'reference'
>;

/**
 * One citation line: "J Med Chem (2012) 55(3):100-112" for an article, "US2012001234 (USPTO, 2012)"
 * for a patent; the stored citation when the parts are missing.
 */
export function citationLine(doc: CitationFields): string {
  if (doc.ref_type === 'patent' && doc.patent_no) {
    const where = [doc.journal_patent_name, doc.year].filter((part) => part !== null && part !== '').join(', ');
    return where ? `${doc.patent_no} (${where})` : doc.patent_no;
  }
  if (!doc.journal_patent_name) return doc.reference ?? '';
  const volume = doc.volume ? ` ${doc.volume}${doc.issue ? `(${doc.issue})` : ''}` : '';
  const pages = doc.start_page ? `:${doc.start_page}${doc.end_page ? `-${doc.end_page}` : ''}` : '';
  return `${doc.journal_patent_name}${doc.year ? ` (${doc.year})` : ''}${volume}${pages}`;
}

/** A calendar date (YYYY-MM-DD) as "15 Mar 2019", read in UTC so no time zone moves it a day. */
export function formatIsoDate(value: string | null): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return value ?? '—';
  return new Date(`${value}T00:00:00Z`).toLocaleDateString('en-GB', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
}

/** "LE 0.31 · LLE 3.02 · BEI 16.7 · SEI 10.1": ligand efficiency where ChEMBL computed it. */
export function ligandEfficiencyText(activity: { le: number | null; lle: number | null; bei: number | null; sei: number | null }): string {
  const parts = (
    [
      ['LE', activity.le],
      ['LLE', activity.lle],
      ['BEI', activity.bei],
      ['SEI', activity.sei],
    ] as const
  )
    .filter(([, value]) => value !== null)
    .map(([label, value]) => `${label} ${formatNumber(value)}`);
  return parts.join(' · ');
}
