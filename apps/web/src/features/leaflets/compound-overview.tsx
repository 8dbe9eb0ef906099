import { Alert, Card, Grid, Group, Paper, Table, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import type { CompoundLeaflet, LeafletProperties } from '@kb/contracts/leaflets';
import { StructureImage } from '../chemistry/structure-image.tsx';
import { parseHighlight } from '../chemistry/structure-highlight.ts';
import { formatNumber } from '../../app/format/number-format.ts';
import { CopyValue, LeafletSection } from './leaflet-ui.tsx';

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
  if (structure.smiles !== structure.canonical_smiles) list.push({ key: 'smiles', label: 'SMILES as reported', value: structure.smiles, mono: true });
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
        This {leaflet.requested.idType === 'dcm' ? 'development compound' : 'compound record'} has no chemical structure in the knowledge base (for example a
        biologic or a mixture), so there is no depiction, identifiers or computed properties. Its records, activities and development data follow.
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
                Highlighted: the substructure of your search ({highlight.text.length > 60 ? `${highlight.text.slice(0, 60)}…` : highlight.text}).
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

/** `digits`: decimals shown when not the usual two (an exact mass is read to four). */
const PROPERTY_ROWS: Array<{ key: keyof LeafletProperties; label: string; unit?: string; digits?: number }> = [
  { key: 'mol_weight', label: 'Molecular weight', unit: 'g/mol' },
  { key: 'exact_mass', label: 'Exact mass', unit: 'Da', digits: 4 },
  { key: 'logp_calc', label: 'cLogP (Crippen)' },
  { key: 'logd_calc', label: 'LogD' },
  { key: 'psa', label: 'Polar surface area (TPSA)', unit: 'Å²' },
  { key: 'hb_donors', label: 'H-bond donors' },
  { key: 'hb_acceptor', label: 'H-bond acceptors' },
  { key: 'rot_bonds', label: 'Rotatable bonds' },
  { key: 'heavy_atoms', label: 'Heavy atoms' },
  { key: 'pka_value', label: 'pKa' },
  { key: 'solubility', label: 'Solubility', unit: 'log mol/L' },
];

/** Computed properties; logD, pKa and solubility are known only when a source gave them. */
export function PropertySection({ properties }: { properties: LeafletProperties }) {
  return (
    <LeafletSection id="properties" title="Properties" meta="Computed with RDKit; logD, pKa and solubility only when a source reports them.">
      <Table data-testid="leaflet-properties" verticalSpacing={4} striped>
        <Table.Tbody>
          {PROPERTY_ROWS.map((row) => {
            const value = properties[row.key];
            return (
              <Table.Tr key={row.key} data-property={row.key}>
                <Table.Td>
                  <Text size="sm">{row.label}</Text>
                </Table.Td>
                <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  <Text size="sm" c={value === null ? 'dimmed' : undefined} data-value>
                    {value === null ? 'not known' : formatNumber(value, { maxFractionDigits: row.digits })}
                    {value !== null && row.unit ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        {row.unit}
                      </Text>
                    ) : null}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </LeafletSection>
  );
}
