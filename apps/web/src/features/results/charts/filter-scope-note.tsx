import { Button, Group, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsSplit2 } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { resultTabLabel } from '@kb/contracts/result-tabs';
import { resultsEndpoints } from '@kb/contracts/results';
import type { ResultsSession } from '@kb/contracts/results';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { endpointKey } from '../../../app/query.ts';
import { describeIgnored } from './chart-filters.ts';
import { refreshAfterFilters, sessionInput } from './chart-queries.ts';
import { otherFilteredTabs, tabsLacking, withFilters } from './filter-scope.ts';

const label = (tab: ResultTabKey) => resultTabLabel(tab) ?? tab;

/**
 * Copies the tab's filters to the given tabs, one applyfilters call each (the server replaces a
 * tab's list, so each tab's other charts travel along), and shows the new counts at once.
 */
function useApplyEverywhere(session: ResultsSession, tab: ResultTabKey, onChanged: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (tabs: ResultTabKey[]) => {
      const source = session.filters[tab] ?? [];
      const answers = [];
      for (const other of tabs) {
        const filters = withFilters(session.filters[other] ?? [], source);
        answers.push(
          await callApi(resultsEndpoints.applyFilters, { params: { tab: other }, body: { sessionid: session.sessionid, filters } }),
        );
      }
      return answers;
    },
    onSuccess: (answers) => {
      client.setQueryData<ResultsSession>(endpointKey(resultsEndpoints.session, sessionInput(session.sessionid)), (old) => {
        if (!old) return old;
        const next = { ...old, filters: { ...old.filters }, tabCounts: { ...old.tabCounts } };
        for (const answer of answers) {
          next.filters[answer.tab] = answer.filters;
          next.tabCounts[answer.tab] = answer.rowCount;
        }
        return next;
      });
      notifications.show({
        color: 'teal',
        title: 'Filters applied to every tab',
        message: answers.map((answer) => `${label(answer.tab)}: ${countNoun(answer.rowCount, 'row')}`).join(' · '),
      });
      const leftOut = answers.filter((answer) => answer.ignored.some((entry) => entry.values.length > 0));
      if (leftOut.length)
        notifications.show({
          color: 'yellow',
          autoClose: false,
          title: 'Some values are in no row of a tab',
          message: leftOut.map((answer) => `${label(answer.tab)} — left out: ${describeIgnored(answer.ignored)}`).join(' · '),
        });
      onChanged();
      void refreshAfterFilters(client, session.sessionid);
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'The filters were not applied to every tab', message: errorMessage(error) }),
  });
}

/**
 * Says which tabs the filters narrow — a chart filter narrows its own tab only — and offers to copy
 * this tab's filters to every other tab, whose rows are linked to the same values through the
 * search's activities.
 */
export function FilterScopeNote({
  session,
  tab,
  busy,
  onChanged,
}: {
  session: ResultsSession;
  tab: ResultTabKey;
  busy: boolean;
  onChanged: () => void;
}) {
  const everywhere = useApplyEverywhere(session, tab, onChanged);
  const own = session.filters[tab]?.length ?? 0;
  const lacking = tabsLacking(session.filters, session.tabCounts, tab);
  const others = otherFilteredTabs(session.filters, tab);
  if (own === 0 && others.length === 0) return null;
  const elsewhere = others.map((entry) => `${entry.label} (${formatCount(entry.filters)})`).join(', ');
  return (
    <Group gap={6} justify="space-between" wrap="wrap" data-testid="filter-scope">
      <Text size="xs" c="dimmed" data-testid="filter-scope-text">
        {own > 0
          ? lacking.length > 0
            ? `${own === 1 ? 'This filter narrows' : 'These filters narrow'} the ${label(tab)} tab only.`
            : `${own === 1 ? 'This filter is' : 'These filters are'} on every tab.`
          : `No filter on ${label(tab)}.`}
        {others.length > 0 && ` Filtered tabs: ${elsewhere}.`}
      </Text>
      {own > 0 && lacking.length > 0 && (
        <Tooltip
          multiline
          w={260}
          label={`Also filter ${lacking.map(label).join(', ')}: each keeps its rows linked to the picked values through this search’s activities.`}
        >
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconArrowsSplit2 size={14} />}
            loading={everywhere.isPending}
            disabled={busy}
            onClick={() => everywhere.mutate(lacking)}
          >
            Apply to all tabs
          </Button>
        </Tooltip>
      )}
    </Group>
  );
}
