import { useParams } from 'react-router';
import { PlannedPage } from '../../app/ui/planned-page.tsx';
import { resultTabLabel } from '../results/result-tabs.ts';

export function DownloadsPage() {
  const { tabid } = useParams();
  return (
    <PlannedPage
      title="Downloads"
      description="Your prepared exports and flat files, ready to download."
      params={tabid === undefined ? undefined : { tab: resultTabLabel(tabid) ?? tabid }}
      tasks={[
        'Download exports you prepared earlier, by tab.',
        'See the size, format, record count and credits used of each file.',
        'Download the flat-file datasets of your subscription.',
      ]}
    />
  );
}
