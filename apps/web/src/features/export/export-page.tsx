import { useParams } from 'react-router';
import { PlannedPage } from '../../app/ui/planned-page.tsx';
import { resultTabLabel } from '../results/result-tabs.ts';

export function ExportPage() {
  const { tabid } = useParams();
  return (
    <PlannedPage
      title="Export"
      description="Export records of your result as CSV, Excel (XLSX) or SDF. Each exported record uses download credits."
      params={tabid === undefined ? undefined : { tab: resultTabLabel(tabid) ?? tabid }}
      tasks={[
        'Choose the tab and the columns to export.',
        'See how many records and credits the export needs before you start.',
        'Download the file when it is ready; it is listed under Downloads.',
      ]}
    />
  );
}
