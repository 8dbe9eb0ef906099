import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { CompoundLeaflet } from '@kb/contracts/leaflets';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { groupBy, referenceLeafletPath } from './leaflet-format.ts';
import { LeafletSection } from '../../app/ui/leaflet-ui.tsx';
import { countNoun } from '../../app/format/plural.ts';

function CompoundRecords({ compounds }: { compounds: CompoundLeaflet['compounds'] }) {
  if (compounds.length === 0) return <EmptyState>No compound records for this structure.</EmptyState>;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table data-testid="leaflet-compound-records" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Record</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Category</Table.Th>
            <Table.Th>CAS</Table.Th>
            <Table.Th>First reported in</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {compounds.map((record) => (
            <Table.Tr key={record.gvk_id}>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {record.gvk_id}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{record.name ?? '—'}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{record.compound_category ?? '—'}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{record.cas_number ?? '—'}</Text>
              </Table.Td>
              <Table.Td>
                {record.ref_id === null ? (
                  '—'
                ) : (
                  <Anchor component={Link} to={referenceLeafletPath(record.ref_id)} size="sm">
                    Reference {record.ref_id}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Synonyms({ synonyms }: { synonyms: CompoundLeaflet['synonyms'] }) {
  if (synonyms.length === 0) return <EmptyState>No synonyms recorded.</EmptyState>;
  return (
    <Stack gap="sm" data-testid="leaflet-synonyms">
      {groupBy(synonyms, (s) => s.syn_type).map(([type, list]) => (
        <div key={type} data-synonym-type={type}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
            {type}
          </Text>
          <Group gap={6}>
            {list.map((s) => (
              <Badge key={`${s.gvk_id}-${s.synonym}`} variant="light" color="indigo" tt="none" radius="sm">
                {s.synonym}
              </Badge>
            ))}
          </Group>
        </div>
      ))}
    </Stack>
  );
}

/** WHO ATC classes (ChEMBL): the level-5 code and substance, then the four levels above it. */
function AtcClasses({ atc }: { atc: CompoundLeaflet['atc'] }) {
  if (atc.length === 0) return null;
  return (
    <div data-testid="leaflet-atc">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
        ATC classification
      </Text>
      <Stack gap={2}>
        {atc.map((entry) => (
          <Text key={entry.code} size="sm">
            <Text span ff="monospace" fw={600}>
              {entry.code}
            </Text>{' '}
            {entry.name}
            {entry.path.length > 0 && (
              <Text span c="dimmed" size="sm">
                {' '}
                — {entry.path.join(' › ')}
              </Text>
            )}
          </Text>
        ))}
      </Stack>
    </div>
  );
}

/** Compound records of the structure and every synonym, grouped by kind (INN, trade name, research code ...). */
export function NamesSection({ leaflet }: { leaflet: CompoundLeaflet }) {
  return (
    <LeafletSection
      id="names"
      title="Names and synonyms"
      meta={`${countNoun(leaflet.compounds.length, 'compound record')}, ${countNoun(leaflet.synonyms.length, 'synonym')}`}
    >
      <Stack gap="md">
        <CompoundRecords compounds={leaflet.compounds} />
        <Synonyms synonyms={leaflet.synonyms} />
        <AtcClasses atc={leaflet.atc} />
      </Stack>
    </LeafletSection>
  );
}
