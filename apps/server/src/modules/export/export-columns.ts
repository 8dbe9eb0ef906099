import type { ExportFormat } from '@kb/contracts/exports';
import { isExportableColumn } from '@kb/contracts/exports';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { tabInfo } from '@kb/contracts/result-tabs';
import { badRequest } from '../../http/errors.ts';
import { TAB_COLUMNS } from '../results/tab-columns.ts';
import type { ExportColumn } from './export-formats.ts';

/** What an export may hold and what its file is called: the tab's exportable columns, the ones chosen, the file name. */

const FORMAT_EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', xlsx: 'xlsx', sdf: 'sdf' };

/** Columns a tab can export (the contract's isExportableColumn). */
export function exportableColumns(tab: ResultTabKey): ExportColumn[] {
  return TAB_COLUMNS[tab].filter(isExportableColumn).map(({ key, label, type }) => ({ key, label, type }));
}

/** The chosen columns in the chosen order; unknown keys are a 400 naming the ones that exist. */
export function chosenColumns(tab: ResultTabKey, keys: readonly string[]): ExportColumn[] {
  const available = exportableColumns(tab);
  const byKey = new Map(available.map((column) => [column.key, column]));
  const unknown = keys.filter((key) => !byKey.has(key));
  if (unknown.length) {
    throw badRequest(
      `The ${tabInfo(tab)!.label} tab has no column ${unknown.map((key) => `"${key}"`).join(', ')}. Columns: ${available.map((c) => c.key).join(', ')}.`,
      {
        field: 'columns',
        available: available.map((c) => c.key),
      },
    );
  }
  return [...new Set(keys)].map((key) => byKey.get(key)!);
}

export function exportFileName(label: string, format: ExportFormat, id: number, when: Date): string {
  const day = when.toISOString().slice(0, 10);
  return `${label.toLowerCase().replace(/\s+/g, '-')}-export-${id}-${day}.${FORMAT_EXTENSIONS[format]}`;
}
