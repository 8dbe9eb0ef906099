import { Tabs } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { AdminRolesTab } from './superadmin/admin-roles-tab.tsx';
import { AuditTab } from './superadmin/audit-tab.tsx';
import { DatasetTab } from './superadmin/dataset-tab.tsx';
import { OverviewTab } from './superadmin/overview-tab.tsx';
import { ReleasesTab } from './superadmin/releases-tab.tsx';
import { SessionsTab } from './superadmin/sessions-tab.tsx';
import { SettingsTab } from './superadmin/settings-tab.tsx';

/** The tabs of /superadmin, in order; `?tab=` keeps the open one in the address. */
const SUPERADMIN_TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'roles', label: 'Admin roles' },
  { value: 'audit', label: 'Audit log' },
  { value: 'sessions', label: 'Sessions' },
  { value: 'dataset', label: 'Data set' },
  { value: 'releases', label: 'Releases' },
  { value: 'settings', label: 'Settings' },
] as const;

export function SuperAdminPage() {
  const [params, setParams] = useSearchParams();
  const tab = SUPERADMIN_TABS.some((item) => item.value === params.get('tab')) ? params.get('tab') : 'overview';
  return (
    <>
      <PageHeader
        title="Super admin"
        description="System overview, admin roles, the audit log, open sessions, the data set, release imports and run-time settings."
      />
      <Tabs value={tab} onChange={(value) => setParams(value ? { tab: value } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          {SUPERADMIN_TABS.map((item) => (
            <Tabs.Tab key={item.value} value={item.value}>
              {item.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="overview">
          <OverviewTab />
        </Tabs.Panel>
        <Tabs.Panel value="roles">
          <AdminRolesTab />
        </Tabs.Panel>
        <Tabs.Panel value="audit">
          <AuditTab />
        </Tabs.Panel>
        <Tabs.Panel value="sessions">
          <SessionsTab />
        </Tabs.Panel>
        <Tabs.Panel value="dataset">
          <DatasetTab />
        </Tabs.Panel>
        <Tabs.Panel value="releases">
          <ReleasesTab />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <SettingsTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
