import { Tabs } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { DatasetsTracker, ExportsTracker, LoginsTracker, SearchesTracker, TermsTracker } from './trackers/tracker-tabs.tsx';

const TABS = [
  { value: 'logins', label: 'Logins', Panel: LoginsTracker },
  { value: 'searches', label: 'Searches', Panel: SearchesTracker },
  { value: 'exports', label: 'Exports and downloads', Panel: ExportsTracker },
  { value: 'datasets', label: 'Flat-file downloads', Panel: DatasetsTracker },
  { value: 'terms', label: 'Reported terms', Panel: TermsTracker },
] as const;

/**
 * `/admin/trackers` (GOSTAR_ADMIN, FLAT_FILE_ADMIN): who logged in, searched, exported and
 * downloaded, and the curation of the terms users reported as unidentified. Only the open tab is
 * mounted (and asks the server); its filters start empty when it is opened again.
 */
export function TrackersPage() {
  const [tab, setTab] = useState<string | null>('logins');
  return (
    <>
      <PageHeader
        title="Trackers"
        description="Logins, searches, exports and downloads of all users, filtered by user, organisation and dates; and the terms users reported as unidentified, to resolve or reject."
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map(({ value, Panel }) => (
          <Tabs.Panel key={value} value={value}>
            <Panel />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
