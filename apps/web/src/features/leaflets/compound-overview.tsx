import { Alert, Anchor, Badge, Card, Grid, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { referenceLeafletLink } from '@kb/contracts/leaflets';
import type { CompoundLeaflet, LeafletProperties, MeasuredProperty, MeasuredPropertyKey, MeasuredValue } from '@kb/contracts/leaflets';
import { StructureImage } from '../chemistry/structure-image.tsx';
import { parseHighlight } from '../chemistry/structure-highlight.ts';
import { formatCount } from '../../app/format/count-format.ts';
import type { Quantity } from '../../app/format/number-format.ts';
import { formatQuantity } from '../../app/format/number-format.ts';
import { formatActivityValue } from './leaflet-format.ts';
import { CopyValue, LeafletSection } from '../../app/ui/leaflet-ui.tsx';

type Structure = NonNullable<CompoundLeaflet['structure']>;

interface Identifier {
  key: string;
  label: string;
  value: string | null;
  mono?: boolean;
}

function identifiersOf(structure: Structure): Identifier[] {
  const list: Identifier[] = [
    { key: 'str_id', label: 'Structure id', value: String(structure.str_id) },
    { key: 'inchikey', label: 'InChIKey', value: structure.inchikey, mono: true },
    { key: 'canonical_smiles', label: 'Canonical SMILES', value: structure.canonical_smiles, mono: true },
    { key: 'inchi', label: 'InChI', value: structure.inchi, mono: true },
    { key: 'mol_formula', label: 'Formula', value: structure.mol_formula },
  ];
  // The source's own SMILES only when it says something the canonical form does not.
  if (structure.smiles !== structure.canonical_smiles)
    list.push({ key: 'smiles', label: 'SMILES as reported', value: structure.smiles, mono: true });
  return list;
}

function IdentifierTable({ structure }: { structure: Structure }) {
  return (
    <Table data-testid="leaflet-identifiers" verticalSpacing={6} layout="fixed">
      <Table.Tbody>
        {identifiersOf(structure).map((identifier) => (
          <Table.Tr key={identifier.key} data-identifier={identifier.key}>
            <Table.Th w={150} fz="sm" c="dimmed" fw={500}>
              {identifier.label}
            </Table.Th>
            <Table.Td>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text
                  size="sm"
                  ff={identifier.mono ? 'monospace' : undefined}
                  style={{ wordBreak: 'break-all' }}
                  lineClamp={identifier.key === 'inchi' ? 3 : undefined}
                  data-value
                >
                  {identifier.value ?? '—'}
                </Text>
                {identifier.value && <CopyValue value={identifier.value} label={identifier.label} />}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The depiction beside the identifiers; a record without a structure says so instead. */
export function CompoundOverview({ leaflet, title }: { leaflet: CompoundLeaflet; title: string }) {
  const { structure } = leaflet;
  // Opened from the results of a substructure search: the link names the match to highlight.
  const [params] = useSearchParams();
  const highlight = parseHighlight(params);
  if (!structure) {
    return (
      <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} />} title="No structure" data-testid="leaflet-no-structure">
        This {leaflet.requested.idType === 'dcm' ? 'development compound' : 'compound record'} has no chemical structure in the knowledge
        base (for example a biologic or a mixture), so there is no depiction, identifiers or computed properties. Its records, activities
        and development data follow.
      </Alert>
    );
  }
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Structure and identifiers">
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 'content' }}>
          <Paper withBorder radius="md" p="xs" bg="white" data-testid="leaflet-structure" w="fit-content">
            <StructureImage
              strId={structure.str_id}
              highlight={highlight?.text ?? null}
              highlightKind={highlight?.kind ?? 'smiles'}
              width={340}
              height={260}
              alt={`Structure of ${title}`}
            />
            {highlight && (
              <Text size="xs" c="dimmed" maw={340} data-testid="leaflet-highlight-note">
                Highlighted: the substructure of your search (
                {highlight.text.length > 60 ? `${highlight.text.slice(0, 60)}…` : highlight.text}).
              </Text>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 'auto' }} miw={0}>
          <IdentifierTable structure={structure} />
        </Grid.Col>
      </Grid>
    </Card>
  );
}

/**
 * `quantity`: how the value is written (contracts/quantities.ts: weight 481.60, exact mass to four decimals, counts whole). `measured`: the
 * property a source measures as an activity (solubility, logD, pKa), shown when the knowledge base
 * holds such measurements of the compound.
 */
const PROPERTY_ROWS: Array<{
  key: keyof LeafletProperties;
  label: string;
  quantity: Quantity;
  unit?: string;
  measured?: MeasuredPropertyKey;
}> = [
  { key: 'mol_weight', label: 'Molecular weight', quantity: 'molecularWeight', unit: 'g/mol' },
  { key: 'exact_mass', label: 'Exact mass', quantity: 'exactMass', unit: 'Da' },
  { key: 'logp_calc', label: 'cLogP (Crippen)', quantity: 'descriptor' },
  { key: 'logd_calc', label: 'LogD', quantity: 'descriptor', measured: 'logd' },
  { key: 'psa', label: 'Polar surface area (TPSA)', quantity: 'descriptor', unit: 'Å²' },
  { key: 'hb_donors', label: 'H-bond donors', quantity: 'count' },
  { key: 'hb_acceptor', label: 'H-bond acceptors', quantity: 'count' },
  { key: 'rot_bonds', label: 'Rotatable bonds', quantity: 'count' },
  { key: 'heavy_atoms', label: 'Heavy atoms', quantity: 'count' },
  { key: 'pka_value', label: 'pKa', quantity: 'descriptor', measured: 'pka' },
  { key: 'solubility', label: 'Solubility', quantity: 'descriptor', unit: 'log mol/L', measured: 'solubility' },
];

/** "J Med Chem (2012) · ChEMBL": where a measured value comes from, linked to its reference leaflet. */
function MeasuredSource({ value }: { value: MeasuredValue }) {
  const source = [value.reference, value.data_source].filter(Boolean).join(' · ');
  if (value.ref_id === null)
    return source ? (
      <Text size="xs" c="dimmed" ta="right">
        {source}
      </Text>
    ) : null;
  return (
    <Anchor component={Link} to={referenceLeafletLink(value.ref_id)} size="xs" c="dimmed" ta="right" data-testid="measured-source">
      {source || `Reference ${value.ref_id}`}
    </Anchor>
  );
}

/** The measured values of a property: "45 µM measured, J Med Chem (2012)", and how many more there are. */
function MeasuredValues({ measured, onOpen }: { measured: MeasuredProperty; onOpen: (value: MeasuredValue) => void }) {
  const more = measured.count - measured.values.length;
  return (
    <Stack gap={2} align="flex-end" data-testid="measured-values" data-count={measured.count}>
      {measured.values.map((value) => (
        <Stack key={value.act_id} gap={0} align="flex-end">
          <Group gap={6} wrap="nowrap" justify="flex-end">
            <Badge
              size="xs"
              variant="light"
              color="teal"
              tt="none"
              style={{ flexShrink: 0 }}
              title={`Measured (${value.std_activity_type}${value.parameter ? `, ${value.parameter}` : ''})`}
            >
              measured
            </Badge>
            <Anchor
              component="button"
              type="button"
              size="sm"
              style={{ whiteSpace: 'nowrap' }}
              onClick={() => onOpen(value)}
              title="Show every measurement of this type"
              data-testid="measured-value"
            >
              {formatActivityValue(value.std_act_prefix, value.activity_value, value.standard_uom)}
            </Anchor>
          </Group>
          <MeasuredSource value={value} />
        </Stack>
      ))}
      {more > 0 && (
        <Anchor component="button" type="button" size="xs" onClick={() => onOpen(measured.values[0]!)}>
          and {formatCount(more)} more
        </Anchor>
      )}
    </Stack>
  );
}

/**
 * Computed properties, and the measured ones: logD, pKa and solubility from a source's value or
 * from the compound's measurements (physicochemical assays), said as "measured" with their source.
 */
export function PropertySection({
  properties,
  measured,
  onOpen,
}: {
  properties: LeafletProperties;
  measured: MeasuredProperty[];
  onOpen: (value: MeasuredValue) => void;
}) {
  return (
    <LeafletSection
      id="properties"
      title="Properties"
      meta="Computed with RDKit; logD, pKa and solubility as a source gives them or as measured in assays."
    >
      <Table data-testid="leaflet-properties" verticalSpacing={4} striped>
        <Table.Tbody>
          {PROPERTY_ROWS.map((row) => {
            const value = properties[row.key];
            const measurements = row.measured ? measured.find((m) => m.property === row.measured) : undefined;
            return (
              <Table.Tr key={row.key} data-property={row.key}>
                <Table.Td>
                  <Text size="sm">{row.label}</Text>
                </Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {(value !== null || !measurements) && (
                    <Text size="sm" c={value === null ? 'dimmed' : undefined} data-value>
                      {value === null ? 'not known' : formatQuantity(value, row.quantity)}
                      {value !== null && row.unit ? (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          {row.unit}
                        </Text>
                      ) : null}
                    </Text>
                  )}
                  {measurements && <MeasuredValues measured={measurements} onOpen={onOpen} />}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </LeafletSection>
  );
}
