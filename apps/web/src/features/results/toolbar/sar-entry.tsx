import { Button, Group, Tooltip } from '@mantine/core';
import { IconChartDots, IconFlask } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { SAR_SOURCE_TABS } from '@kb/contracts/sar';
import type { SarSourceTab } from '@kb/contracts/sar';
import { countNoun } from '../../../app/format/plural.ts';
import { useMayOpen } from '../../../app/use-route-access.ts';
import { useOpenSarView } from './use-open-sar-view.ts';
import type { ResultsScope } from '../results-store.ts';
import type { TabState } from '../tab-state.ts';

function isSarTab(tab: ResultTabKey): tab is SarSourceTab {
  return (SAR_SOURCE_TABS as readonly string[]).includes(tab);
}

export interface SarEntryProps {
  scope: ResultsScope;
  sessionId: string;
  tab: ResultTabKey;
  state: TabState;
  /** Rows ticked in the tab (0: the SAR view takes every row of the tab as filtered). */
  count: number;
}

/**
 * The way from the Structures and Activities tabs into the SAR view (the ticked rows, or all rows
 * of the tab as the grid shows them) and the analyzers. The rows are put into the SAR view of this
 * search session first; a set over the SAR view's limit is refused with the server's message,
 * which says how to narrow it.
 */
export function SarEntry({ scope, sessionId, tab, state, count }: SarEntryProps) {
  if (!isSarTab(tab)) return null;
  return <SarEntryButtons scope={scope} sessionId={sessionId} tab={tab} state={state} count={count} />;
}

function SarEntryButtons({ scope, sessionId, tab, state, count }: SarEntryProps & { tab: SarSourceTab }) {
  const mayOpen = useMayOpen();
  const sar = useOpenSarView({ scope, sessionId, tab });
  const from = scope === 'selection' ? '?from=selection' : '';
  const rows = count > 0 ? `the ${countNoun(count, 'ticked row')}` : 'all rows of this tab, as filtered';
  const open = () =>
    sar.open({ selection: count > 0 ? state.selection : null, ...(state.goto ? { strIdList: state.goto.strIdList } : {}) });

  return (
    <Group gap="xs">
      {mayOpen('/sarview/:tabid') && (
        <Tooltip label={`Study ${rows} in the SAR view: R-groups, activity cliffs, matched pairs`}>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFlask size={14} />}
            loading={sar.opening}
            onClick={() => void open()}
            data-testid="open-sar-view"
          >
            {count > 0 ? 'SAR view of selected' : 'SAR view'}
          </Button>
        </Tooltip>
      )}
      {mayOpen('/analyzers/:tabid') && (
        <Tooltip label="Charts over the rows of this tab">
          <Button
            size="xs"
            variant="default"
            component={Link}
            to={`/analyzers/${tab}${from}`}
            leftSection={<IconChartDots size={14} />}
            data-testid="open-analyzers"
          >
            Analyzers
          </Button>
        </Tooltip>
      )}
    </Group>
  );
}
