import { TRACKER_CSV_MAX_ROWS } from '@kb/contracts/admin-trackers';
import type {
  DatasetTrackerRow,
  ExportTrackerRow,
  LoginTrackerRow,
  SearchTrackerRow,
  TermTrackerRow,
  Tracker,
} from '@kb/contracts/admin-trackers';
import { csvText } from '@kb/contracts/csv';
import type { CsvValue } from '@kb/contracts/csv';

/**
 * The trackers' CSV files (RFC 4180, CRLF). Users type much of what the trackers hold (search
 * terms, reported terms, comments): the shared cell writer (contracts csv.ts) neutralises text a
 * spreadsheet would read as a formula.
 */

type Cell = CsvValue;

interface Column<R> {
  header: string;
  cell: (row: R) => Cell;
}

const userColumns = <R extends { userEmail: string | null; organisation: string | null }>(): Column<R>[] => [
  { header: 'User', cell: (r) => r.userEmail },
  { header: 'Organisation', cell: (r) => r.organisation },
];

const COLUMNS: { [T in Tracker]: Column<RowOf<T>>[] } = {
  logins: [
    ...userColumns<LoginTrackerRow>(),
    { header: 'Login', cell: (r) => r.loginDate },
    { header: 'Logout', cell: (r) => r.logoutDate },
    { header: 'Failed', cell: (r) => (r.failed ? 'yes' : 'no') },
    { header: 'Failure reason', cell: (r) => r.failureReason },
    { header: 'IP address', cell: (r) => r.ipAddress },
  ],
  searches: [
    ...userColumns<SearchTrackerRow>(),
    { header: 'Date', cell: (r) => r.createdAt },
    { header: 'Criteria', cell: (r) => r.summary },
    { header: 'Structures', cell: (r) => r.counts?.stridscount },
    { header: 'Activities', cell: (r) => r.counts?.actidscount },
    { header: 'Assays', cell: (r) => r.counts?.assayidscount },
    { header: 'References', cell: (r) => r.counts?.refidscount },
    { header: 'Compounds', cell: (r) => r.counts?.gvkidscount },
    { header: 'Clinical compounds', cell: (r) => r.counts?.clinicalcompoundidscount },
    { header: 'Duration (ms)', cell: (r) => r.durationMs },
    { header: 'Failed', cell: (r) => (r.failed ? 'yes' : 'no') },
  ],
  exports: [
    ...userColumns<ExportTrackerRow>(),
    { header: 'Date', cell: (r) => r.createdAt },
    { header: 'Tab', cell: (r) => r.tab },
    { header: 'Format', cell: (r) => r.format },
    { header: 'Records', cell: (r) => r.records },
    { header: 'Credits', cell: (r) => r.credits },
    { header: 'Status', cell: (r) => r.status },
    { header: 'File', cell: (r) => r.fileName },
    { header: 'Downloads', cell: (r) => r.downloads },
    { header: 'Last download', cell: (r) => r.lastDownloadAt },
  ],
  datasets: [
    ...userColumns<DatasetTrackerRow>(),
    { header: 'Date', cell: (r) => r.createdAt },
    { header: 'Dataset type', cell: (r) => r.datasetType },
    { header: 'Description', cell: (r) => r.description },
    { header: 'File', cell: (r) => r.fileName },
    { header: 'Size (bytes)', cell: (r) => r.fileSize },
  ],
  terms: [
    ...userColumns<TermTrackerRow>(),
    { header: 'Reported', cell: (r) => r.createdAt },
    { header: 'Term', cell: (r) => r.term },
    { header: 'List type', cell: (r) => r.listType },
    { header: 'File', cell: (r) => r.fileName },
    { header: 'Comment', cell: (r) => r.comment },
    { header: 'Status', cell: (r) => r.status },
    { header: 'Resolved to id', cell: (r) => r.resolvedTo?.id },
    { header: 'Resolved to', cell: (r) => r.resolvedTo?.label },
    { header: 'Note', cell: (r) => r.note },
    { header: 'Curated by', cell: (r) => r.curatedBy },
    { header: 'Curated', cell: (r) => r.curatedAt },
  ],
};

type RowOf<T extends Tracker> = {
  logins: LoginTrackerRow;
  searches: SearchTrackerRow;
  exports: ExportTrackerRow;
  datasets: DatasetTrackerRow;
  terms: TermTrackerRow;
}[T];

/** The CSV text of a tracker's rows; `total` above the rows given adds a last line saying the file was cut. */
export function toCsv<T extends Tracker>(tracker: T, rows: readonly RowOf<T>[], total: number): string {
  const columns = COLUMNS[tracker] as Column<RowOf<T>>[];
  const lines: Cell[][] = [columns.map((c) => c.header)];
  for (const row of rows) lines.push(columns.map((c) => c.cell(row)));
  if (total > rows.length) {
    lines.push([
      `Cut at ${TRACKER_CSV_MAX_ROWS.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows: narrow the filters (dates) to export the rest.`,
    ]);
  }
  return csvText(lines);
}
