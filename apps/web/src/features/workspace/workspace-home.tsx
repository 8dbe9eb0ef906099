import { Button, Tabs } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { NewCollectionDialog } from './collection/new-collection-dialog.tsx';
import { CollectionsList } from './lists/collections-list.tsx';
import { HistoryList } from './lists/history-list.tsx';
import { ResultSetsList } from './lists/result-sets-list.tsx';

const TABS = ['collections', 'result-sets', 'history'] as const;
type WorkspaceTab = (typeof TABS)[number];

/** /workspace: the user's collections, saved result sets and search history (the open tab in the address, so a link or Back keeps it). */
export function WorkspaceHome() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: WorkspaceTab = TABS.includes(asked as WorkspaceTab) ? (asked as WorkspaceTab) : 'collections';
  const [creating, setCreating] = useState(false);
  return (
    <div data-testid="workspace-home">
      <PageHeader
        title="Workspace"
        description="What lasts beyond one search: lists of compounds, whole results pages kept by name, and your recent searches. Share collections and result sets with colleagues of your organisation."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-collection-button">
            New collection
          </Button>
        }
      />
      <Tabs value={tab} onChange={(value) => value && setParams({ tab: value }, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="collections" data-testid="workspace-tab-collections">
            Collections
          </Tabs.Tab>
          <Tabs.Tab value="result-sets" data-testid="workspace-tab-result-sets">
            Saved result sets
          </Tabs.Tab>
          <Tabs.Tab value="history" data-testid="workspace-tab-history">
            History
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="collections">
          <CollectionsList />
        </Tabs.Panel>
        <Tabs.Panel value="result-sets">
          <ResultSetsList />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <HistoryList />
        </Tabs.Panel>
      </Tabs>
      <NewCollectionDialog opened={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
