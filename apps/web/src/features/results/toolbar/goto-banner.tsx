import { Alert, Button, Group, Text } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { resultTabLabel } from '@kb/contracts/result-tabs';
import type { GotoRestriction } from '../tab-state.ts';
import { countNoun } from '../../../app/format/plural.ts';

/** Spec "go to": the tab shows only the rows of some structures, until "View all". */
export function GotoBanner({ goto, running, onViewAll }: { goto: GotoRestriction; running: boolean; onViewAll: () => void }) {
  const structures = goto.strIdList.length;
  return (
    <Alert color="grape" variant="light" icon={<IconFilter size={18} />} p="xs" data-testid="goto-banner" data-structures={structures}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">
          Showing rows of {countNoun(structures, 'structure')} selected in {resultTabLabel(goto.fromTab) ?? goto.fromTab}
        </Text>
        <Button size="compact-sm" variant="light" color="grape" onClick={onViewAll} loading={running}>
          View all
        </Button>
      </Group>
    </Alert>
  );
}
