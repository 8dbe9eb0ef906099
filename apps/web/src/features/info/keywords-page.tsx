import { Badge, Code, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { KEYWORDS } from './keywords.ts';

export function KeywordsPage() {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const rows = KEYWORDS.filter(
    (keyword) => !needle || `${keyword.field} ${keyword.group} ${keyword.meaning}`.toLowerCase().includes(needle),
  );
  return (
    <>
      <PageHeader
        title="Keywords"
        description="The field names you meet in result columns, filters and exports, with what they mean. Prefix and unit fields (…_prefix, …_uom) qualify the value next to them."
      />
      <TextInput
        label="Find a keyword"
        placeholder="e.g. logp, IC50, patent"
        leftSection={<IconSearch size={16} />}
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        maw={360}
        mb="md"
      />
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="keywords-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Found in</Table.Th>
              <Table.Th>Meaning</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((keyword) => (
              <Table.Tr key={`${keyword.group}-${keyword.field}`}>
                <Table.Td>
                  <Code>{keyword.field}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" tt="none">
                    {keyword.group}
                  </Badge>
                </Table.Td>
                <Table.Td>{keyword.meaning}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && (
        <Text c="dimmed" size="sm" ta="center" py="md">
          No keyword matches “{filter}”.
        </Text>
      )}
    </>
  );
}
