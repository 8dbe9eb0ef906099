import { Button, Group, Paper, Text } from '@mantine/core';
import { IconChartDots3, IconSearch, IconX } from '@tabler/icons-react';
import type { AnalyzerTab } from '@kb/contracts/analyzers';
import type { ResultsScope } from '../../results/results-store.ts';
import { useNewSearchBySelection } from '../../results/selection/use-selection-actions.ts';
import { INITIAL_TAB_STATE } from '../../results/tab-state.ts';
import { useOpenSarView } from '../../results/toolbar/use-open-sar-view.ts';
import type { BrushedRows } from './scatter-points.ts';
import { selectionStatus } from './scatter-points.ts';

/**
 * Rows brushed on the scatter, as a selection of the tab: a new search by selection (the results
 * page's own flow) or the SAR view of these rows (the results toolbar's own way in).
 */
export function SelectionBar({
  scope,
  sessionId,
  tab,
  brushed,
  onClear,
}: {
  scope: ResultsScope;
  sessionId: string;
  tab: AnalyzerTab;
  brushed: BrushedRows;
  onClear: () => void;
}) {
  const selection = { selectAll: false, selectedIds: brushed.ids, unselectedIds: [] };
  // The grid's own ticks are left as they are: the brushed rows are a selection of their own.
  const newSearch = useNewSearchBySelection({ scope, sessionId, tab, state: { ...INITIAL_TAB_STATE, selection }, update: () => undefined });
  const sar = useOpenSarView({ scope, sessionId, tab });

  return (
    <Paper withBorder shadow="sm" p="sm" radius="md" data-testid="analyzer-selection" style={{ position: 'sticky', top: 64, zIndex: 5 }}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600} role="status" maw={720}>
          {selectionStatus(brushed, tab)}
        </Text>
        <Group gap="xs">
          <Button size="xs" leftSection={<IconSearch size={14} />} loading={newSearch.running} onClick={() => void newSearch.start()}>
            New search by selection
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconChartDots3 size={14} />}
            loading={sar.opening}
            onClick={() => void sar.open({ selection })}
          >
            Open in SAR view
          </Button>
          <Button size="xs" variant="subtle" color="gray" leftSection={<IconX size={14} />} onClick={onClear}>
            Clear
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
