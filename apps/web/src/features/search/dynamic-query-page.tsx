import { PlannedPage } from '../../app/ui/planned-page.tsx';

export function DynamicQueryPage() {
  return (
    <PlannedPage
      title="Dynamic query"
      description="Compose a query from the knowledge base's fields directly, beyond the guided search rows."
      tasks={[
        'Pick fields of structures, activities, assays and references and set conditions on them.',
        'Preview the number of matching records before running the query.',
        'Save the query and open its results in the results tabs.',
      ]}
    />
  );
}
