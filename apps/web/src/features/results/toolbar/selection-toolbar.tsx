import { Button, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconFileExport, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ResultTabKey } from '@kb/contracts/result-tabs';
import { RESULT_TABS } from '@kb/contracts/result-tabs';
import { formatCount } from '../../../app/format/count-format.ts';
import type { TabSelection } from '../tab-state.ts';

/** What the rows of each tab are called in "Show … of the selected rows". */
const ROWS_OF: Record<ResultTabKey, string> = {
  structuretab: 'structures',
  activitiestab: 'activities',
  assaytab: 'assays',
  developmentcompoundstab: 'development compounds',
  documentstab: 'documents',
};

export interface SelectionToolbarProps {
  tab: ResultTabKey;
  selection: TabSelection;
  count: number;
  searching: boolean;
  going: boolean;
  onClear: () => void;
  onNewSearch: () => void;
  onGoto: (toTab: ResultTabKey) => void;
  /** The export page of this tab, or null for roles that may not export (EVALUATE_USER). */
  exportTo: string | null;
}

/** Spec §4 selection count, and what can be done with the selected rows. */
export function SelectionToolbar({
  tab,
  selection,
  count,
  searching,
  going,
  onClear,
  onNewSearch,
  onGoto,
  exportTo,
}: SelectionToolbarProps) {
  const none = count === 0;
  // "Go to" sends the ids themselves: a select-all over every page has none to send.
  const gotoBlocked = selection.selectAll ? 'Tick rows one by one to show their related rows' : none ? 'Select rows first' : null;
  return (
    <Group gap="xs" wrap="wrap" data-testid="selection-toolbar">
      <Text size="sm" fw={600} data-testid="selected-count" data-value={count} aria-live="polite">
        {formatCount(count)} selected
      </Text>
      {!none && (
        <Button size="compact-xs" variant="subtle" color="gray" onClick={onClear}>
          Clear
        </Button>
      )}
      <Button
        size="xs"
        leftSection={<IconSearch size={14} />}
        onClick={onNewSearch}
        loading={searching}
        data-testid="new-search-by-selection"
      >
        New search by selection
      </Button>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Tooltip label={gotoBlocked} disabled={gotoBlocked === null}>
            <Button
              size="xs"
              variant="default"
              rightSection={<IconChevronDown size={14} />}
              disabled={gotoBlocked !== null}
              loading={going}
              data-testid="goto-menu"
            >
              Show related rows
            </Button>
          </Tooltip>
        </Menu.Target>
        <Menu.Dropdown>
          {RESULT_TABS.filter((other) => other.key !== tab).map((other) => (
            <Menu.Item key={other.key} onClick={() => onGoto(other.key)}>
              Show {ROWS_OF[other.key]} of the selected rows
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {exportTo && (
        <Button
          size="xs"
          variant="default"
          component={Link}
          to={exportTo}
          leftSection={<IconFileExport size={14} />}
          data-testid="results-export"
          title={none ? 'Export the rows of this tab' : 'Export the selected rows of this tab'}
        >
          {none ? 'Export' : 'Export selected'}
        </Button>
      )}
    </Group>
  );
}
