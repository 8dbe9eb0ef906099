import { useParams } from 'react-router';
import { PlannedPage } from '../../app/ui/planned-page.tsx';

export function ReferenceLeafletPage() {
  const { sid, rid } = useParams();
  return (
    <PlannedPage
      title="Reference leaflet"
      description="One reference (journal article or patent) and the compounds and activities reported in it."
      params={{ 'structure id': sid, 'reference id': rid }}
      tasks={[
        'See authors, journal or patent details, year, DOI and PubMed ID.',
        'List the structures and activities the reference reports.',
        'Open a compound leaflet or start a search from the reference.',
      ]}
    />
  );
}
