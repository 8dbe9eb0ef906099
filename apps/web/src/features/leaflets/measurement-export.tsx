import { callApi } from '../../app/api-client.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { MEASUREMENT_LIMITS, leafletEndpoints } from '@kb/contracts/leaflets';
import { CreditExport } from '../export/credit-export.tsx';
import type { MeasurementSubject, MeasurementView } from './use-measurements.ts';
import { measurementSelection } from './use-measurements.ts';

/** Export of the list as shown (its type and sort, every page) through the export jobs and credits (features/export/credit-export.tsx). */
export function MeasurementExport({
  subject,
  view,
  rows,
}: {
  subject: MeasurementSubject;
  view: Pick<MeasurementView, 'type' | 'sort' | 'direction'>;
  rows: number;
}) {
  return (
    <CreditExport
      formats={['csv', 'xlsx'] as const}
      rows={rows}
      noun="measurement"
      refusal={
        rows > MEASUREMENT_LIMITS.maxExportRows
          ? `One export holds at most ${formatCount(MEASUREMENT_LIMITS.maxExportRows)} measurements: choose one activity type to export fewer.`
          : null
      }
      note="Values and units are written as the knowledge base stores them."
      start={(format, expectedCredits) =>
        callApi(leafletEndpoints.measurementsExport, { body: { ...measurementSelection(subject, view), format, expectedCredits } })
      }
      testId="measurement-export"
    />
  );
}
