import { PlannedPage } from '../../app/ui/planned-page.tsx';

export function ClientDashboardPage() {
  return (
    <PlannedPage
      title="Client dashboard"
      description="Client administration: the organisations your contract covers, their users and how they use their subscription."
      tasks={[
        'See the users of your organisation and the roles their subscriptions grant.',
        'Follow download-credit use and subscription end dates per contract.',
        'Review flat-file requests raised by your users.',
      ]}
    />
  );
}
