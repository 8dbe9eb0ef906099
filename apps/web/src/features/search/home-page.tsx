import { PlannedPage } from '../../app/ui/planned-page.tsx';

export function HomePage() {
  return (
    <PlannedPage
      title="Home"
      description="Your starting point: recent searches, saved queries and the size of the knowledge base."
      tasks={[
        'Reopen a recent search or a saved query with its filters and charts.',
        'See how many structures, activities, assays, references and clinical compounds the knowledge base holds.',
        'Jump to the search builder, your dashboard or the user manual.',
      ]}
    />
  );
}
