import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { ResultSetDetail } from '@kb/contracts/workspace';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { tabInfo } from '@kb/contracts/result-tabs';
import { formatDateTime } from '../../../app/format/display-format.ts';
import { endpointQuery } from '../../../app/query.ts';
import { QueryErrorAlert } from '../../../app/ui/query-view.tsx';
import { NotSharedPage, idOfParam } from '../not-shared.tsx';
import { OwnerText, VisibilityBadge } from '../owned-badges.tsx';
import { changeNotice, readSavedView } from '../result-set-state.ts';
import { sheetHref } from '../sheet/sheet-source.ts';
import { isNotFound } from '../workspace-queries.ts';
import { RESTORE_STEP_TEXT, useRestore } from './use-restore.ts';

/**
 * /workspace/result-sets/:id — a saved result set's permanent link. It loads the set, runs its
 * search again with its chart filters and view, and opens the results on the saved tab; when the
 * knowledge base changed since, the results page says so with both counts.
 */
export function ResultSetPage() {
  const id = idOfParam(useParams().id);
  const detail = useQuery({
    ...endpointQuery(workspaceEndpoints.resultSet, { params: { id: id ?? 0 } }),
    enabled: id !== null,
    retry: false,
    staleTime: 0,
  });
  if (id === null) return <NotSharedPage what="saved result set" />;
  if (detail.isError)
    return isNotFound(detail.error) ? (
      <NotSharedPage what="saved result set" />
    ) : (
      <QueryErrorAlert error={detail.error} onRetry={() => void detail.refetch()} title="The saved result set could not load" />
    );
  if (!detail.data)
    return (
      <Group gap="xs" py="xl">
        <Loader size="sm" />
        <Text size="sm">Opening the saved result set…</Text>
      </Group>
    );
  return <Restoring set={detail.data} />;
}

/** The tab a restored set's sheet opens on: its own when its rows are compounds, else Structures. */
function sheetTab(tab: ResultTabKey): ResultTabKey {
  return tab === 'activitiestab' ? tab : 'structuretab';
}

function Restoring({ set }: { set: ResultSetDetail }) {
  const { restore, step, error } = useRestore();
  // `?as=sheet` ("Open as sheet" in the list): the restored search's rows open as a compound sheet.
  const asSheet = useSearchParams()[0].get('as') === 'sheet';
  const started = useRef(false);

  const run = () => {
    const { state } = set;
    void restore(
      {
        scope: state.scope,
        criteria: state.criteria,
        summary: state.summary ?? null,
        filters: state.filters,
        view: readSavedView(state.view),
      },
      state.tab,
      (restored) => {
        const notice = changeNotice(state, restored, { saved: set.kbVersion, current: set.currentKbVersion });
        if (notice)
          notifications.show({
            id: `result-set-${set.id}-changed`,
            color: 'yellow',
            autoClose: false,
            title: `“${set.name}”`,
            message: notice,
          });
      },
      asSheet ? (restored) => sheetHref({ kind: 'session', sessionid: restored.sessionId, tab: sheetTab(state.tab) }) : undefined,
    );
  };

  // Opening the link is asking for the results: run once (StrictMode mounts effects twice).
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mounted set
  }, []);

  return (
    <Stack gap="md" maw={760} data-testid="result-set-page" data-result-set={set.id}>
      <Title order={2}>{set.name}</Title>
      <Group gap="sm">
        <VisibilityBadge visibility={set.visibility} people={set.sharing?.people.length} />
        <Text size="sm" c="dimmed">
          Saved {formatDateTime(set.createdAt)} by
        </Text>
        <OwnerText owner={set.owner} mine={set.mine} />
      </Group>
      {set.summary && <Text size="sm">{set.summary}</Text>}
      <Paper withBorder p="md" radius="md">
        {error ? (
          <Alert color="red" variant="light" role="alert" title="The saved result set could not be opened">
            <Stack gap="xs">
              <Text size="sm">{error}</Text>
              <Button size="xs" variant="light" color="red" onClick={run} w="fit-content">
                Try again
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Group gap="sm" role="status" data-testid="restore-progress">
            <Loader size="sm" />
            <Text size="sm">
              {step ? RESTORE_STEP_TEXT[step] : 'Starting…'}{' '}
              {asSheet ? 'It opens as a compound sheet.' : `It opens on the ${tabInfo(set.tab)?.label ?? set.tab} tab.`}
            </Text>
          </Group>
        )}
      </Paper>
    </Stack>
  );
}
