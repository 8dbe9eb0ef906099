import { useParams } from 'react-router';
import { PlannedPage } from '../../app/ui/planned-page.tsx';
import { resultTabLabel } from '../results/result-tabs.ts';

export function SarViewPage() {
  const { tabid } = useParams();
  return (
    <PlannedPage
      title="SAR view"
      description="Structure–activity relationships of the compounds in your result: structures side by side with their measured activities."
      params={tabid === undefined ? undefined : { tab: resultTabLabel(tabid) ?? tabid }}
      tasks={[
        'Compare activities of related structures against one target or assay.',
        'Sort by similarity to a reference structure and spot activity cliffs.',
        'Send the selection on to a new search or to export.',
      ]}
    />
  );
}
