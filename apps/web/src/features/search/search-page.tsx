import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { SEARCH_GROUPS, findSearchOption } from './search-options.ts';

/** The search page (spec §2): the three groupings of the search builder; the builder itself follows. */
export function SearchPage() {
  const [params] = useSearchParams();
  const selected = findSearchOption(params.get('group'), params.get('option'));

  return (
    <Stack gap="md">
      <PageHeader
        title="Search"
        description="Build a guided search from rows combined with AND, OR and NOT: structures, targets, bibliography, companies and the selections and tree views below. Counts of matching structures, activities, assays, references and clinical compounds appear before you open the results."
      />
      {selected && (
        <Card withBorder radius="md" padding="md" data-testid="selected-search-option">
          <Group gap="xs">
            <Badge variant="light">{selected.group.label}</Badge>
            <Text fw={600}>{selected.option.label}</Text>
          </Group>
          <Text size="sm" c="dimmed" mt={4}>
            {selected.option.hint}. Adding this option as a search row arrives with the search builder.
          </Text>
        </Card>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {SEARCH_GROUPS.map((group) => (
          <Card key={group.key} withBorder radius="md" padding="lg">
            <Title order={3} size="h4" mb="xs">
              {group.label}
            </Title>
            <Stack gap={6}>
              {group.options.map((option) => (
                <Stack key={option.key} gap={0}>
                  <Text component={Link} to={`/search?group=${group.key}&option=${option.key}`} size="sm" fw={500} c="blue">
                    {option.label}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {option.hint}
                  </Text>
                </Stack>
              ))}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
