import type { ColumnType, Generated } from 'kysely';

/** Kysely types of the tables of migration 0006_uploads.sql; `Database` (db/schema.ts) extends this. */

/** One sending of unidentified terms to the curation team. */
export interface TermReportsTable {
  report_id: Generated<number>;
  user_id: number;
  list_type: string;
  file_name: string | null;
  comment: string | null;
  term_count: number;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The terms of a report, in the order they were sent. */
export interface ReportedTermsTable {
  report_id: number;
  position: number;
  term: string;
}

export interface UploadTables {
  term_reports: TermReportsTable;
  reported_terms: ReportedTermsTable;
}
