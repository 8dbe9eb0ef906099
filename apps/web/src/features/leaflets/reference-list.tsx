import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { CompoundLeaflet, LeafletReferenceRow } from '@kb/contracts/leaflets';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { formatCount } from '../../app/format/count-format.ts';
import { countNoun } from '../../app/format/plural.ts';
import { ACTIVITY } from '../../app/format/nouns.ts';
import { citationLine, doiUrl, pubmedUrl, referenceLeafletPath } from './leaflet-format.ts';
import { CappedNote, ExternalLink, LeafletSection } from '../../app/ui/leaflet-ui.tsx';

function ReferenceItem({ reference }: { reference: LeafletReferenceRow }) {
  // The stored citation carries volume and pages, which this list does not fetch.
  const citation = reference.reference ?? citationLine({ ...reference, volume: null, issue: null, start_page: null, end_page: null });
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="li"
      data-testid="leaflet-reference"
      data-ref-id={reference.ref_id}
      style={{ listStyle: 'none' }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Anchor component={Link} to={referenceLeafletPath(reference.ref_id)} fw={500} size="sm" lineClamp={2}>
            {reference.title ?? `Reference ${reference.ref_id}`}
          </Anchor>
          {citation && (
            <Text size="xs" c="dimmed">
              {citation}
            </Text>
          )}
          <Group gap="sm">
            {reference.doi && <ExternalLink href={doiUrl(reference.doi)}>DOI {reference.doi}</ExternalLink>}
            {reference.pubmed_id !== null && (
              <ExternalLink href={pubmedUrl(reference.pubmed_id)}>PubMed {reference.pubmed_id}</ExternalLink>
            )}
          </Group>
        </Stack>
        <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
          <Badge variant="light" color={reference.ref_type === 'patent' ? 'orange' : 'blue'}>
            {reference.ref_type}
            {reference.year ? ` · ${reference.year}` : ''}
          </Badge>
          <Text size="xs" c="dimmed" data-activity-count={reference.activity_count}>
            {reference.activity_count === 0 ? 'reports the compound' : countNoun(reference.activity_count, ACTIVITY)}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/** Journal articles and patents that report the compound, newest first, each opening its reference leaflet. */
export function ReferenceListSection({ references }: { references: CompoundLeaflet['references'] }) {
  return (
    <LeafletSection
      id="references"
      title="References"
      meta={references.total > 0 ? `${formatCount(references.total)} reporting the compound, newest first` : undefined}
    >
      {references.rows.length === 0 ? (
        <EmptyState>No references report this compound.</EmptyState>
      ) : (
        <>
          <Stack gap="xs" component="ul" p={0} m={0} data-testid="leaflet-references">
            {references.rows.map((reference) => (
              <ReferenceItem key={reference.ref_id} reference={reference} />
            ))}
          </Stack>
          <CappedNote shown={references.rows.length} total={references.total} what="references" />
        </>
      )}
    </LeafletSection>
  );
}
