import { Badge, Button, Grid, Group, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { LEAFLET_ID_TYPE_LABELS } from '@kb/contracts/leaflets';
import type { CompoundLeaflet } from '@kb/contracts/leaflets';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { CompoundOverview, PropertySection } from './compound-overview.tsx';
import { DevelopmentSection, phaseColor } from './development-section.tsx';
import { parseCompoundRoute } from './leaflet-format.ts';
import { CopyLinkButton, InvalidLinkAlert, LeafletError, LeafletProblemPage, LeafletSkeleton } from '../../app/ui/leaflet-ui.tsx';
import { useMeasurementList } from './measurement-list.tsx';
import { NamesSection } from './names-section.tsx';
import { ReferenceListSection } from './reference-list.tsx';
import { TargetActivitySection } from './target-activity-table.tsx';
import { useCompoundLeaflet } from './use-leaflets.ts';
import { LeafletPredictionSection } from '../prediction/leaflet-prediction-section.tsx';

/** The name a chemist knows the compound by: a drug name, a record's name, an INN, else its id. */
function compoundTitle(leaflet: CompoundLeaflet): string {
  const named =
    leaflet.development[0]?.drug_name ??
    leaflet.compounds.find((c) => c.name)?.name ??
    leaflet.synonyms.find((s) => /inn/i.test(s.syn_type))?.synonym;
  if (named) return named;
  if (leaflet.structure) return `Structure ${leaflet.structure.str_id}`;
  return `${LEAFLET_ID_TYPE_LABELS[leaflet.requested.idType]} ${leaflet.requested.id}`;
}

const SECTIONS = [
  ['properties', 'Properties'],
  ['names', 'Names'],
  ['activities', 'Activities'],
  ['development', 'Development'],
  ['references', 'References'],
] as const;

/** Jumps to a section; buttons rather than #links keep the leaflet's URL the one to share. */
function SectionLinks({ leaflet }: { leaflet: CompoundLeaflet }) {
  return (
    <Group gap={4} aria-label="Sections of this leaflet" role="navigation">
      {SECTIONS.filter(([id]) => id !== 'properties' || leaflet.properties).map(([id, label]) => (
        <Button
          key={id}
          size="compact-sm"
          variant="subtle"
          onClick={() => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
        >
          {label}
        </Button>
      ))}
    </Group>
  );
}

function description(leaflet: CompoundLeaflet): string {
  const parts = ['Compound leaflet'];
  if (leaflet.structure) parts.push(`structure ${leaflet.structure.str_id}`);
  if (leaflet.structure?.mol_formula) parts.push(leaflet.structure.mol_formula);
  if (leaflet.requested.idType !== 'structure')
    parts.push(`opened from ${LEAFLET_ID_TYPE_LABELS[leaflet.requested.idType]} ${leaflet.requested.id}`);
  return parts.join(' · ');
}

function CompoundLeafletView({ leaflet }: { leaflet: CompoundLeaflet }) {
  const title = compoundTitle(leaflet);
  const lead = leaflet.development[0];
  const category = leaflet.compounds.find((c) => c.compound_category)?.compound_category;
  const measurements = useMeasurementList();
  const { idType, id } = leaflet.requested;
  return (
    <Stack gap="md" data-testid="compound-leaflet">
      <PageHeader
        title={title}
        description={description(leaflet)}
        actions={
          <Group gap={6}>
            {lead && (
              <Badge size="lg" color={phaseColor(lead.highest_phase)} variant="filled">
                {lead.highest_phase ?? 'Development compound'}
              </Badge>
            )}
            {category && (
              <Badge size="lg" variant="light" color="gray" tt="none">
                {category}
              </Badge>
            )}
            <CopyLinkButton path={leaflet.link} />
          </Group>
        }
      />
      <SectionLinks leaflet={leaflet} />
      <CompoundOverview leaflet={leaflet} title={title} />
      <Grid gap="md" align="stretch">
        {leaflet.properties && (
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <PropertySection
              properties={leaflet.properties}
              measured={leaflet.measured}
              onOpen={(value) =>
                measurements.open({ idType, id, targetId: value.target_id ?? 'none', type: value.std_activity_type, label: title })
              }
            />
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, lg: leaflet.properties ? 7 : 12 }}>
          <NamesSection leaflet={leaflet} />
        </Grid.Col>
      </Grid>
      <TargetActivitySection
        activities={leaflet.activities}
        onOpen={(group) =>
          measurements.open({
            idType,
            id,
            targetId: group.target_id ?? 'none',
            label: `${title} ${group.target_id === null ? 'without a target' : `on ${group.target_name ?? ''}`}`,
          })
        }
      />
      {leaflet.structure && <LeafletPredictionSection smiles={leaflet.structure.canonical_smiles} />}
      <DevelopmentSection development={leaflet.development} />
      <ReferenceListSection references={leaflet.references} />
      {measurements.drawer}
    </Stack>
  );
}

/** `/leaflet/{idType}/{id}`: everything the knowledge base holds about one compound on one page. */
export function CompoundLeafletPage() {
  const params = useParams();
  const route = parseCompoundRoute(params.idType, params.id);
  const query = useCompoundLeaflet(route.ok ? route : null);
  if (!route.ok) {
    return (
      <LeafletProblemPage title="Compound leaflet">
        <InvalidLinkAlert message={route.message} />
      </LeafletProblemPage>
    );
  }
  if (query.isPending) return <LeafletSkeleton />;
  if (query.isError) {
    return (
      <LeafletProblemPage title="Compound leaflet" description={`${LEAFLET_ID_TYPE_LABELS[route.idType]} ${route.id}`}>
        <LeafletError error={query.error} onRetry={() => void query.refetch()} />
      </LeafletProblemPage>
    );
  }
  return <CompoundLeafletView leaflet={query.data} />;
}
