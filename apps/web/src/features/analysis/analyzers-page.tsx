import { useParams } from 'react-router';
import { PlannedPage } from '../../app/ui/planned-page.tsx';
import { resultTabLabel } from '../results/result-tabs.ts';

export function AnalyzersPage() {
  const { tabid } = useParams();
  return (
    <PlannedPage
      title="Analyzers"
      description="Charts over the whole result set: distributions, histograms, trees and heat maps."
      params={tabid === undefined ? undefined : { tab: resultTabLabel(tabid) ?? tabid }}
      tasks={[
        'Plot property distributions (molecular weight, logP, PSA) and activity ranges.',
        'Break results down by target class, indication, source or year.',
        'Click a bar or a node to filter the result.',
      ]}
    />
  );
}
