import { useParams } from 'react-router';
import { PlannedPage } from '../../app/ui/planned-page.tsx';

export function CompoundLeafletPage() {
  const { idType, id } = useParams();
  return (
    <PlannedPage
      title="Compound leaflet"
      description="Everything the knowledge base holds about one compound on one page."
      params={{ 'id type': idType, id }}
      tasks={[
        'See the structure, names and synonyms, identifiers and computed properties.',
        'Review its activities, assays, targets and references.',
        'For development compounds: phase, status, indications and mechanism of action.',
      ]}
    />
  );
}
