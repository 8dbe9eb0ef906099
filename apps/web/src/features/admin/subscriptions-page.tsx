import { Tabs } from '@mantine/core';
import { IconBuilding, IconFileImport, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { BulkImportPanel } from './subscriptions/bulk-import-panel.tsx';
import { OrganisationsPanel } from './subscriptions/organisations-panel.tsx';
import { UsersPanel } from './subscriptions/users-panel.tsx';

type Tab = 'users' | 'organisations' | 'onboarding';

/**
 * /admin/subscriptions (GOSTAR_ADMIN): users and their subscriptions and credits, organisations,
 * and bulk onboarding. Every change is checked and recorded by the server (one audit row each).
 */
export function SubscriptionsPage() {
  const [tab, setTab] = useState<Tab>('users');
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Users, their subscriptions and download credits, the organisations they belong to, and onboarding from a file."
      />
      <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'users')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="users" leftSection={<IconUsers size={16} />}>
            Users
          </Tabs.Tab>
          <Tabs.Tab value="organisations" leftSection={<IconBuilding size={16} />}>
            Organisations
          </Tabs.Tab>
          <Tabs.Tab value="onboarding" leftSection={<IconFileImport size={16} />}>
            Bulk onboarding
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users">
          <UsersPanel />
        </Tabs.Panel>
        <Tabs.Panel value="organisations">
          <OrganisationsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="onboarding">
          <BulkImportPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
