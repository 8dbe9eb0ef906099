import { Alert, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconAlertTriangle } from '@tabler/icons-react';
import { chemistryEndpoints, isInchikeyOrSkeleton } from '@kb/contracts/chemistry';
import type { StructureHit, StructurePreviewRequest } from '@kb/contracts/chemistry';
import { errorMessage } from '../../../app/api-client.ts';
import { endpointQuery } from '../../../app/query.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import type { EditorProps } from './editor-props.ts';
import { countNoun } from '../../../app/format/plural.ts';

/** Hits a preview shows: one row of small drawings. */
const PREVIEW_HITS = 8;
const TILE = { width: 150, height: 110 };

type Draft = EditorProps<'structure'>['draft'];

/** The preview request of a draft, or null when there is nothing to preview. */
function previewRequest(draft: Draft): StructurePreviewRequest | null {
  if (draft.inputType !== 'smiles' && draft.inputType !== 'smarts' && draft.inputType !== 'molfile') return null;
  if (!draft.value.trim()) return null;
  return {
    inputType: draft.inputType,
    value: draft.value,
    category: draft.category,
    similarityMin: draft.similarityMin ?? null,
    similarityMax: draft.similarityMax ?? null,
    similarityNearest: draft.resultFilter ? null : (draft.similarityNearest ?? null),
    feature: draft.feature,
    limit: PREVIEW_HITS,
  };
}

function summary(data: { complete: boolean; total: number | null; hits: StructureHit[]; elapsedMs: number; indexSize: number }): string {
  const time = `${formatCount(data.elapsedMs)} ms`;
  if (data.total !== null) return `${countNoun(data.total, 'structure')} of ${formatCount(data.indexSize)} · ${time}`;
  return `More than ${formatCount(data.hits.length)} structures: the first ${formatCount(data.hits.length)} are shown; the search counts them all · ${time}`;
}

function HitTiles({
  hits,
  highlight,
  highlightKind,
}: {
  hits: StructureHit[];
  highlight: string | null;
  highlightKind: 'smiles' | 'smarts';
}) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
      {hits.map((hit) => (
        <Paper key={hit.strId} withBorder p={4} radius="sm" data-testid="structure-preview-hit">
          <StructureImage
            strId={hit.strId}
            highlight={highlight}
            highlightKind={highlightKind}
            width={TILE.width}
            height={TILE.height}
            alt={hit.name ?? `structure ${hit.strId}`}
          />
          <Text size="xs" truncate title={hit.name ?? undefined}>
            {hit.name ?? `#${hit.strId}`}
            {hit.similarity !== null && ` · ${hit.similarity.toFixed(2)}`}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** The structures an InChIKey names: the whole key, else the same skeleton (first block). */
function InchikeyPreview({ value }: { value: string }) {
  const [key] = useDebouncedValue(value.trim().toUpperCase(), 400);
  const found = useQuery({
    ...endpointQuery(chemistryEndpoints.structuresByInchikey, { body: { inchikey: key } }),
    enabled: isInchikeyOrSkeleton(key),
    staleTime: 60_000,
    retry: false,
  });
  if (!isInchikeyOrSkeleton(key)) return null;
  if (found.isError)
    return (
      <Alert color="red" variant="light">
        {errorMessage(found.error)}
      </Alert>
    );
  if (!found.data) return <Loader size="xs" aria-label="Looking up the InChIKey" />;
  const { match, structures, more } = found.data;
  const howMany = `${more ? 'more than ' : ''}${formatCount(structures.length)}`;
  const text =
    match === 'none'
      ? 'No structure has this InChIKey or its skeleton.'
      : match === 'exact'
        ? `This InChIKey is ${structures.length === 1 && !more ? 'structure' : 'structures'} ${structures.map((s) => `#${s.strId}`).join(', ')}${more ? ', …' : ''}.`
        : `No structure has the whole key; ${howMany} share its skeleton (first block).`;
  return (
    <Stack gap={6} data-testid="inchikey-preview">
      <Text size="xs" c="dimmed">
        {text}
      </Text>
      {structures.length > 0 && <HitTiles hits={structures.slice(0, PREVIEW_HITS)} highlight={null} highlightKind="smiles" />}
    </Stack>
  );
}

/**
 * What the structure query finds, while the chemist types or draws it: RDKit's verdict on the
 * query (errors say what and where), the number of hits when the preview could count them all,
 * and the first hits drawn with the query highlighted.
 */
export function StructureHitsPreview({ draft }: Pick<EditorProps<'structure'>, 'draft'>) {
  if (draft.inputType === 'inchikey') return <InchikeyPreview value={draft.value} />;
  return <QueryPreview draft={draft} />;
}

function QueryPreview({ draft }: Pick<EditorProps<'structure'>, 'draft'>) {
  // Debounced as text: a new object each render would restart the timer.
  const [debounced] = useDebouncedValue(JSON.stringify(previewRequest(draft)), 400);
  const request = JSON.parse(debounced) as StructurePreviewRequest | null;
  const preview = useQuery({
    ...endpointQuery(chemistryEndpoints.structuresBySmilesSmarts, { body: request ?? ({} as StructurePreviewRequest) }),
    enabled: request !== null,
    staleTime: 60_000,
    retry: false,
  });
  if (!request) return null;
  if (preview.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="structure-preview-error">
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {errorMessage(preview.error)}
        </Text>
      </Alert>
    );
  }
  if (!preview.data) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="xs" c="dimmed">
          Checking the structure and looking for its first hits…
        </Text>
      </Group>
    );
  }
  const data = preview.data;
  // Highlight what the query matched: SMARTS as written, molecules as RDKit canonicalised them.
  const highlight = request.category === 'similarity' ? null : (data.query.smarts ?? data.query.smiles);
  return (
    <Stack gap={6} data-testid="structure-preview" aria-live="polite">
      <Group gap="xs">
        <Badge variant="light" color={data.hits.length ? 'teal' : 'gray'}>
          Preview
        </Badge>
        <Text size="xs" c="dimmed" data-testid="structure-preview-summary">
          {data.hits.length === 0 ? `No structure matches · ${formatCount(data.elapsedMs)} ms` : summary(data)}
        </Text>
      </Group>
      {data.hits.length > 0 && <HitTiles hits={data.hits} highlight={highlight} highlightKind={data.query.smarts ? 'smarts' : 'smiles'} />}
    </Stack>
  );
}
