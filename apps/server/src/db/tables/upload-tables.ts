import type { ColumnType, Generated } from 'kysely';

/** Kysely types of the tables of migration 0006_uploads.sql; `Database` (db/schema.ts) extends this. */

/** One sending of unidentified terms to the curation team. */
interface TermReportsTable {
  report_id: Generated<number>;
  user_id: number;
  list_type: string;
  file_name: string | null;
  comment: string | null;
  term_count: number;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The terms of a report, in the order they were sent. */
interface ReportedTermsTable {
  report_id: number;
  position: number;
  term: string;
  /** Migration 0018: the term's id and its curation state. */
  term_id: Generated<number>;
  status: Generated<'open' | 'resolved' | 'rejected'>;
  note: string | null;
  curated_by: number | null;
  curated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  resolved_id: string | null;
  resolved_label: string | null;
}

/** Migration 0018: a reported term resolved by a curator, read by the upload resolver. */
interface CuratedSynonymsTable {
  id: Generated<number>;
  lookup_kind: string;
  lookup_key: string;
  match_id: string;
  label: string | null;
  term: string;
  created_by: number | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UploadTables {
  term_reports: TermReportsTable;
  reported_terms: ReportedTermsTable;
  curated_synonyms: CuratedSynonymsTable;
}
