import { Button, Menu, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconDeviceFloppy, IconFolderPlus, IconTable } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import type { ResultsSession } from '@kb/contracts/results';
import type { CompoundSource } from '@kb/contracts/workspace';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { sessionQuery } from '../results/results-queries.ts';
import type { ResultsToolProps } from '../results/results-slots.tsx';
import { useResultsStore } from '../results/results-store.ts';
import { useSearchChartsStore } from '../search/saved/search-charts-store.ts';
import { AddToCollectionDialog } from './add-to-collection.tsx';
import { NameDialog } from './name-dialog.tsx';
import { ToastLink, workspaceLink } from './permanent-link.tsx';
import { buildResultSetState } from './result-set-state.ts';
import { keepPickedRows } from './sheet/picked-rows.ts';
import { sheetHref } from './sheet/sheet-source.ts';
import { refreshResultSets } from './workspace-queries.ts';

/** Tabs whose rows are compounds (a structure, or an activity of one): they open as a sheet and go into collections. */
const COMPOUND_TABS: readonly ResultTabKey[] = ['structuretab', 'activitiestab'];

/** The tab's rows as a compound source: the ticked ones, else all as filtered; a "go to" narrows either. */
function tabSource({ sessionId, tab, state, count }: ResultsToolProps): Extract<CompoundSource, { kind: 'session' }> {
  return {
    kind: 'session',
    sessionid: sessionId,
    tab,
    ...(count > 0 ? { selection: state.selection } : {}),
    ...(state.goto ? { strIdList: state.goto.strIdList } : {}),
  };
}

function rowsInWords(count: number, rowCount: number): string {
  return count > 0 ? `the ${countNoun(count, 'ticked row')}` : `all ${formatCount(rowCount)} rows of this tab, as filtered`;
}

/** "Save result set": the page as it is, kept by name; the toast gives its permanent link. */
function useSaveResultSet(props: ResultsToolProps, session: ResultsSession | undefined) {
  return useMutation({
    mutationFn: async (name: string) => {
      if (!session) throw new Error('The results are still loading; try again in a moment.');
      const results = useResultsStore.getState();
      const held = results.scopes[props.scope];
      const built = buildResultSetState({
        scope: props.scope,
        tab: props.tab,
        session,
        tabs: held.sessionId === props.sessionId ? held.tabs : {},
        columnChoices: results.columnChoices,
        density: results.density,
        charts: useSearchChartsStore.getState().enabledCharts,
      });
      if (!built.ok) throw new Error(built.message);
      const saved = await callApi(workspaceEndpoints.saveResultSet, { body: { name, description: '', state: built.state } });
      return { saved, droppedSelection: built.droppedSelection };
    },
    onSuccess: ({ saved, droppedSelection }) => {
      void refreshResultSets();
      const link = workspaceLink('resultSet', saved.id);
      notifications.show({
        color: 'teal',
        autoClose: 12_000,
        title: `Saved “${saved.name}”`,
        message: (
          <Text size="sm">
            Its permanent link:{' '}
            <ToastLink to={link} testId="saved-set-link">
              {window.location.origin}
              {link}
            </ToastLink>
            {droppedSelection ? '. The ticked rows were too many to keep and were left out.' : ''}
          </Text>
        ),
      });
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'The result set was not saved', message: errorMessage(error), autoClose: false }),
  });
}

/**
 * The workspace on the results page: the tab's rows as a sheet or into a collection, and the whole
 * page kept as a saved result set. Handed in through the results slots (pages/feature-slots.ts).
 */
export function WorkspaceResultsTools(props: ResultsToolProps) {
  const { tab, sessionId, state, count, rowCount } = props;
  const navigate = useNavigate();
  const session = useQuery(sessionQuery(sessionId)).data;
  const [adding, setAdding] = useState<CompoundSource | null>(null);
  const [naming, setNaming] = useState(false);
  const save = useSaveResultSet(props, session);
  const compounds = COMPOUND_TABS.includes(tab);
  const words = rowsInWords(count, rowCount);

  const openSheet = () => {
    // Ticked rows (or a "go to") are too many for an address: they wait in this tab's session storage.
    const narrowed = count > 0 || state.goto !== null;
    const token = narrowed
      ? keepPickedRows({
          selection: count > 0 ? state.selection : { selectAll: true, selectedIds: [], unselectedIds: [] },
          ...(state.goto ? { strIdList: state.goto.strIdList } : {}),
        })
      : undefined;
    navigate(sheetHref({ kind: 'session', sessionid: sessionId, tab }, token));
  };

  return (
    <>
      {compounds && (
        <Tooltip label={`A compound × endpoint sheet of ${words}`}>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconTable size={14} />}
            onClick={openSheet}
            disabled={rowCount === 0}
            data-testid="open-sheet"
          >
            {count > 0 ? 'Sheet of selected' : 'Open as sheet'}
          </Button>
        </Tooltip>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            size="xs"
            variant="default"
            rightSection={<IconChevronDown size={14} />}
            loading={save.isPending}
            data-testid="workspace-menu"
          >
            Keep
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {compounds && (
            <Menu.Item
              leftSection={<IconFolderPlus size={14} />}
              onClick={() => setAdding(tabSource(props))}
              disabled={rowCount === 0}
              data-testid="add-to-collection-open"
            >
              Add {count > 0 ? 'selected' : 'all'} to collection…
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconDeviceFloppy size={14} />} onClick={() => setNaming(true)} data-testid="save-result-set-open">
            Save result set…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <AddToCollectionDialog source={adding} what={words} onClose={() => setAdding(null)} />
      <NameDialog
        opened={naming}
        title="Save result set"
        initial={session?.summary?.slice(0, 80) ?? ''}
        submitLabel="Save"
        busy={save.isPending}
        onClose={() => setNaming(false)}
        onSubmit={(name) => save.mutate(name, { onSuccess: () => setNaming(false) })}
      >
        <Text size="xs" c="dimmed">
          Keeps the search, the chart filters of every tab, the columns, sort, selection and this tab; its link opens the page again after
          logging out, for you and whoever you share it with.
        </Text>
      </NameDialog>
    </>
  );
}
