import { Button, Card, List, Stack, Text } from '@mantine/core';
import { IconFlask, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { resultTabLabel } from '@kb/contracts/result-tabs';
import { SAR_MAX_COMPOUNDS } from '@kb/contracts/sar';
import { formatCount } from '../../../app/format/count-format.ts';
import { useSearchSessionStore } from '../../../app/stores/search-session-store.ts';
import { PageHeader } from '../../../app/ui/page-header.tsx';
import { useSarData } from './sar-queries.ts';

/** The SAR data the current search already has (from a results tab), if any. */
function CurrentSearch({ sessionId }: { sessionId: string }) {
  const data = useSarData(sessionId);
  if (data.data) {
    return (
      <Button
        component={Link}
        to={`/sarview/${data.data.tab}`}
        leftSection={<IconFlask size={16} />}
        w="fit-content"
        data-testid="sar-home-open"
      >
        Open the SAR view of your current search ({resultTabLabel(data.data.tab) ?? data.data.tab}, {formatCount(data.data.compounds)}{' '}
        compounds)
      </Button>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm">Your current search has results: open its Structures or Activities tab and choose “SAR view” there.</Text>
      <Button component={Link} to="/results/structuretab" variant="default" w="fit-content">
        Go to the results
      </Button>
    </Stack>
  );
}

/** Spec §2 /sarview: what the SAR view is, and the way into it from the current search. */
export function SarHome() {
  const sessionId = useSearchSessionStore((state) => state.searchSessionId);
  return (
    <>
      <PageHeader
        title="SAR view"
        description="Structure–activity relationships of the compounds of a search, against one target and activity type."
      />
      <Card withBorder radius="md" padding="lg" maw={860}>
        <Stack gap="md">
          <Text size="sm">
            The SAR view takes the rows of a results tab (Structures or Activities, the ticked rows or all of them) and shows:
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              the SAR table: each compound with the core highlighted, its R-groups drawn, pActivity (median, n and spread), MW, cLogP,
              ligand efficiency and LipE;
            </List.Item>
            <List.Item>
              the R-group matrix: two R positions against each other, cells coloured by activity, unmade combinations drawn as virtual
              compounds;
            </List.Item>
            <List.Item>a Free-Wilson analysis: what each R-group adds to activity, and the best predicted combinations;</List.Item>
            <List.Item>
              activity cliffs (similar compounds, very different activity) and matched molecular pairs (A → B transformations).
            </List.Item>
          </List>
          <Text size="xs" c="dimmed">
            Up to {formatCount(SAR_MAX_COMPOUNDS)} compounds at once. Values in nM, µM, mM or M become pActivity (−log10 molar); other units
            are used as published.
          </Text>
          {sessionId ? (
            <CurrentSearch sessionId={sessionId} />
          ) : (
            <Button component={Link} to="/search" leftSection={<IconSearch size={16} />} w="fit-content">
              Run a search first
            </Button>
          )}
        </Stack>
      </Card>
    </>
  );
}
