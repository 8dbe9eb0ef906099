import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ReferenceCompound, ReferenceLeaflet } from '@kb/contracts/leaflets';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { StructureImage } from '../chemistry/structure-image.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun, showMoreLabel } from '../../app/format/plural.ts';
import { structureLeafletPath } from './leaflet-format.ts';
import { CappedNote, LeafletSection } from '../../app/ui/leaflet-ui.tsx';

/** Drawings are requested a page at a time: a reference may report hundreds of compounds. */
const PAGE = 24;

function CompoundTile({ compound }: { compound: ReferenceCompound }) {
  const name = compound.name ?? `Structure ${compound.str_id}`;
  return (
    <Paper
      withBorder
      radius="md"
      p="xs"
      data-testid="reference-compound"
      data-str-id={compound.str_id}
      data-in-search={String(compound.in_search)}
    >
      <Stack gap={6} align="center">
        <Link to={structureLeafletPath(compound.str_id)} aria-label={`Open the leaflet of ${name}`}>
          <StructureImage strId={compound.str_id} width={180} height={135} alt={name} />
        </Link>
        <Stack gap={2} w="100%">
          <Anchor component={Link} to={structureLeafletPath(compound.str_id)} size="sm" fw={500} lineClamp={1} title={name}>
            {name}
          </Anchor>
          <Group gap={6} justify="space-between">
            <Text size="xs" c="dimmed">
              {compound.label ? `“${compound.label}” · ` : ''}
              {formatCount(compound.activity_count)} act.
            </Text>
            {compound.in_search && (
              <Badge size="xs" color="teal" variant="light">
                in search
              </Badge>
            )}
          </Group>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** The structures the reference reports, drawn, each opening its compound leaflet. */
export function ReferenceCompoundsSection({
  compounds,
  inSearchOnly,
}: {
  compounds: ReferenceLeaflet['compounds'];
  inSearchOnly: boolean;
}) {
  const [shown, setShown] = useState(PAGE);
  const visible = compounds.rows.slice(0, shown);
  const listed = inSearchOnly ? (compounds.inSearch ?? 0) : compounds.total;
  const meta = `${countNoun(compounds.total, 'compound')}${compounds.inSearch !== null ? ` · ${formatCount(compounds.inSearch)} in your search` : ''}`;
  return (
    <LeafletSection id="compounds" title="Compounds reported" meta={meta}>
      {compounds.rows.length === 0 ? (
        <EmptyState>{inSearchOnly ? 'None of this reference’s compounds is in your search.' : 'No compounds reported.'}</EmptyState>
      ) : (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 6 }} spacing="sm" data-testid="reference-compounds">
            {visible.map((compound) => (
              <CompoundTile key={compound.str_id} compound={compound} />
            ))}
          </SimpleGrid>
          {shown < compounds.rows.length && (
            <Group justify="center">
              <Button variant="light" size="xs" onClick={() => setShown((n) => n + PAGE)}>
                {showMoreLabel(Math.min(PAGE, compounds.rows.length - shown), compounds.rows.length - shown, 'compound')}
              </Button>
            </Group>
          )}
          <CappedNote shown={compounds.rows.length} total={listed} what="compounds" />
        </Stack>
      )}
    </LeafletSection>
  );
}
