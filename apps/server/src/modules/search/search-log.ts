import type { Kysely } from 'kysely';
import type { SearchCounts, SearchCriteria, SearchRow } from '@kb/contracts/search';
import { SEARCH_SUMMARY_MAX_LENGTH } from '@kb/contracts/admin-trackers';
import type { Database } from '../../db/schema.ts';

/**
 * The search log (migration 0016 `search_log`, read by the trackers): one row per search run,
 * written after its counts. A failed write is swallowed: the log is for administrators, and a
 * search must never fail because of it.
 */

const MAX_LISTED = 3;

const OPTION_LABELS: Record<SearchRow['selectedOption'], string> = {
  structure: 'Structure',
  target: 'Target',
  bibliography: 'Bibliography',
  company: 'Company',
  degrader: 'Degrader',
  clinicalphase: 'Clinical phase',
  source: 'Source',
  indication: 'Indication',
  activitytypes: 'Activity type',
  assay: 'Assay',
  activitymechanism: 'Mechanism',
  compoundcategories: 'Compound category',
  treeview: 'Tree',
  selection: 'Selection',
  collection: 'In collection',
};

function list(values: readonly (string | number | null | undefined)[]): string {
  const shown = values.filter((v) => v !== null && v !== undefined && v !== '').map((v) => String(v).slice(0, 60));
  const more = shown.length > MAX_LISTED ? ` (+${shown.length - MAX_LISTED} more)` : '';
  return shown.slice(0, MAX_LISTED).join(' | ') + more;
}

const ids = (label: string, values: readonly unknown[] | undefined) => (values?.length ? `${values.length} ${label}` : '');

function detail(row: SearchRow): string {
  switch (row.selectedOption) {
    case 'structure':
      return [
        row.structure ? `${row.structure.category} ${row.structure.inputType}` : '',
        ids('structure ids', row.strIds),
        list(row.casNumbers ?? []),
        row.properties ? 'properties' : '',
      ]
        .filter(Boolean)
        .join(', ');
    case 'target':
      return list(row.targets.map((t) => t.displayValue ?? t.label));
    case 'bibliography':
      return [
        ids('documents', row.refIds),
        ids('PubMed ids', row.pubmedIds),
        list(row.dois ?? []),
        list(row.authors ?? []),
        ids('patents', row.patents),
        ids('journals', row.journals),
        row.yearRange ? `years ${row.yearRange.fromYear ?? ''}–${row.yearRange.toYear ?? ''}` : '',
      ]
        .filter(Boolean)
        .join(', ');
    case 'company':
      return [ids('companies', row.companyIds), list(row.companyNames ?? [])].filter(Boolean).join(', ');
    case 'degrader':
      return list(row.degraderTypes);
    case 'clinicalphase':
      return list(row.phases);
    case 'source':
      return [ids('taxa', row.taxonomyIds), ids('strains', row.strains)].filter(Boolean).join(', ');
    case 'indication':
      return [ids('indications', row.indicationIds), list(row.indicationNames ?? [])].filter(Boolean).join(', ');
    case 'activitytypes':
      return list(row.activities.map((a) => a.activityType));
    case 'assay':
      return [list(row.assayTypes ?? []), list(row.methodNames ?? []), ids('assays', row.assayIds)].filter(Boolean).join(', ');
    case 'activitymechanism':
      return list(row.mechanisms);
    case 'compoundcategories':
      return list(row.categories);
    case 'treeview':
      return `${row.tree}: ${list(row.labels?.length ? row.labels : row.nodeIds)}`;
    case 'selection':
      return `${row.ids.length} ${row.entity}`;
    case 'collection':
      return collectionName(row);
  }
}

/** `"Kinase hits"` (the name the row was made with), else `#12`. */
function collectionName(row: Extract<SearchRow, { selectedOption: 'collection' }>): string {
  return row.label ? `"${row.label.slice(0, 60)}"` : `#${row.collectionId}`;
}

/** One row in words: `Target: EGFR`; a collection row reads `In collection "Kinase hits"`. */
function clause(row: SearchRow): string {
  if (row.selectedOption === 'collection') return `${OPTION_LABELS.collection} ${collectionName(row)}`;
  const what = detail(row);
  return what ? `${OPTION_LABELS[row.selectedOption]}: ${what}` : OPTION_LABELS[row.selectedOption];
}

/** A short human text of the criteria, e.g. "Target: EGFR AND Activity type: IC50" (bounded length). */
export function criteriaSummary(criteria: SearchCriteria): string {
  const text = criteria.rows
    .map((row, index) => (index < criteria.rows.length - 1 ? `${clause(row)} ${row.operator ?? 'AND'}` : clause(row)))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > SEARCH_SUMMARY_MAX_LENGTH ? `${text.slice(0, SEARCH_SUMMARY_MAX_LENGTH - 1)}…` : text;
}

export interface SearchLogEntry {
  userId: number;
  sessionId: string;
  criteria: SearchCriteria;
  counts: SearchCounts | null;
  durationMs: number;
  failed: boolean;
}

/** Writes one search_log row; never throws (a search does not fail because its log could not be written). */
export async function writeSearchLog(db: Kysely<Database>, entry: SearchLogEntry): Promise<void> {
  try {
    await db
      .insertInto('search_log')
      .values({
        user_id: entry.userId,
        search_session_id: entry.sessionId,
        summary: criteriaSummary(entry.criteria),
        counts: entry.counts ? JSON.stringify(entry.counts) : null,
        duration_ms: Math.max(0, Math.round(entry.durationMs)),
        failed: entry.failed,
      })
      .execute();
  } catch {
    // Deliberately ignored: see above.
  }
}
