import type { SheetSource } from '@kb/contracts/sheet';
import { sheetEndpoints } from '@kb/contracts/sheet';
import { callApi } from '../../../app/api-client.ts';
import { CreditExport } from '../../export/credit-export.tsx';
import type { SheetConfig } from './sheet-config.ts';
import { sheetRequest } from './sheet-config.ts';

/**
 * The sheet as a file (CSV, Excel, SDF with the values as data fields) under the results export's
 * credit rule: every row of the sheet as sorted and filtered, one credit each, asked first
 * (features/export/credit-export.tsx), then the job's card and its file.
 */
export function SheetExport({ source, config, rows }: { source: SheetSource; config: SheetConfig; rows: number }) {
  return (
    <CreditExport
      formats={['xlsx', 'csv', 'sdf'] as const}
      rows={rows}
      noun="compound"
      note="The file holds every row of the sheet as sorted and filtered, with its columns."
      start={(format, expectedCredits) => {
        const { page: _page, pageSize: _pageSize, ...request } = sheetRequest(source, config);
        return callApi(sheetEndpoints.sheetExport, { body: { ...request, format, expectedCredits } });
      }}
      testId="sheet-export"
    />
  );
}
