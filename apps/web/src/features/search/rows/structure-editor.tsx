import {
  ActionIcon,
  Button,
  Collapse,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconLock, IconLockOpen, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import {
  MAX_SIMILARITY_NEAREST,
  PROPERTY_DEFAULTS,
  PROPERTY_FIELDS,
  RULE_OF_FIVE,
  RULE_OF_THREE,
  defaultStructureCategory,
} from '@kb/contracts/search';
import type { PropertyColumn } from '@kb/contracts/search';
import type { PropertyField, StructureCategory, StructureDraft, StructureInputType } from '../builder/row-drafts.ts';
import { LOOKUPS } from '../lookups/lookup-sources.ts';
import { LookupTextInput } from '../lookups/lookup-text-input.tsx';
import { TextListInput } from '../lookups/text-list-input.tsx';
import { DraftNumberInput } from '../ui/draft-number-input.tsx';
import { StructureEditorModal } from '../../chemistry/editor/structure-editor-modal.tsx';
import type { StructureDrawing, StructureText } from '../../chemistry/editor/structure-drawing.ts';
import type { EditorProps } from './editor-props.ts';
import { PropertyCount, rangeHint, usePropertyRanges } from './property-ranges.tsx';
import { StructureHitsPreview } from './structure-preview.tsx';
import { useStructureActions } from './structure-actions.tsx';

const INPUT_TYPES: { value: StructureInputType; label: string; placeholder: string }[] = [
  { value: 'name', label: 'Name', placeholder: 'Compound name or synonym, e.g. imatinib' },
  { value: 'smiles', label: 'SMILES', placeholder: 'e.g. c1ccc2[nH]ccc2c1' },
  { value: 'smarts', label: 'SMARTS', placeholder: 'e.g. [#6]1:[#6]:[#6]:[#6]:[#6]:[#6]:1' },
  { value: 'inchikey', label: 'InChIKey', placeholder: '27 characters, e.g. BSYNRYMUTXBXSQ-UHFFFAOYSA-N' },
  { value: 'molfile', label: 'Molfile', placeholder: 'Paste a V2000 or V3000 molfile' },
];

const CATEGORIES: { value: StructureCategory; label: string }[] = [
  { value: 'exact', label: 'Exact' },
  { value: 'substructure', label: 'Substructure' },
  { value: 'similarity', label: 'Similarity' },
];

/** Spec §3 structure and physicochemical properties, as chemists read them. */
const PROPERTY_LABELS: Record<PropertyColumn, string> = {
  mol_weight: 'Molecular weight',
  logp_calc: 'cLogP',
  rot_bonds: 'Rotatable bonds',
  psa: 'Polar surface area (Å²)',
  hb_donors: 'H-bond donors',
  hb_acceptor: 'H-bond acceptors',
  pka_value: 'pKa',
  logd_calc: 'cLogD',
  solubility: 'Solubility',
};

const defaults: Partial<Record<PropertyField, number>> = PROPERTY_DEFAULTS;

function rangeText(rule: Partial<Record<PropertyField, number | null>>): string {
  return (Object.entries(PROPERTY_FIELDS) as [PropertyColumn, readonly [PropertyField, PropertyField]][])
    .filter(([, [min, max]]) => rule[min] != null || rule[max] != null)
    .map(([column, [min, max]]) => `${PROPERTY_LABELS[column]} ${rule[min] ?? '…'}–${rule[max] ?? '…'}`)
    .join(', ');
}

function PropertiesTable({ draft, errors, update }: EditorProps<'structure'>) {
  const set = (field: PropertyField, value: number | null) => update((d) => ({ ...d, properties: { ...d.properties, [field]: value } }));
  const ranges = usePropertyRanges();
  return (
    <>
      <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing="xs" data-testid="structure-properties">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Property</Table.Th>
            <Table.Th>Minimum</Table.Th>
            <Table.Th>Maximum</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(Object.entries(PROPERTY_FIELDS) as [PropertyColumn, readonly [PropertyField, PropertyField]][]).map(([column, [min, max]]) => (
            <Table.Tr key={column}>
              <Table.Td>
                <Text size="sm">{PROPERTY_LABELS[column]}</Text>
                <Text size="xs" c="dimmed">
                  {rangeHint(ranges.get(column))}
                </Text>
              </Table.Td>
              <Table.Td>
                <DraftNumberInput
                  size="xs"
                  aria-label={`${PROPERTY_LABELS[column]} minimum`}
                  placeholder={defaults[min] !== undefined ? String(defaults[min]) : 'min'}
                  value={draft.properties[min] ?? null}
                  onNumberChange={(value) => set(min, value)}
                  error={errors[`properties.${min}`]}
                />
              </Table.Td>
              <Table.Td>
                <DraftNumberInput
                  size="xs"
                  aria-label={`${PROPERTY_LABELS[column]} maximum`}
                  placeholder={defaults[max] !== undefined ? String(defaults[max]) : 'max'}
                  value={draft.properties[max] ?? null}
                  onNumberChange={(value) => set(max, value)}
                  error={errors[`properties.${max}`]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <PropertyCount properties={draft.properties} />
    </>
  );
}

function StructureValueField({ draft, errors, update }: EditorProps<'structure'>) {
  const type = INPUT_TYPES.find((item) => item.value === draft.inputType) ?? INPUT_TYPES[0]!;
  const error = errors['structure.value'];
  if (draft.readOnly) {
    // Spec §5 read-only marker: the value came from a look-up and is kept exactly as found.
    return (
      <TextInput
        label={draft.inputType === 'name' ? 'Compound name' : type.label}
        value={draft.value}
        readOnly
        error={error}
        description="Taken from the look-up; unlock to edit it."
        leftSection={<IconLock size={14} aria-hidden />}
        rightSection={
          <Tooltip label="Unlock to edit">
            <ActionIcon
              variant="subtle"
              aria-label="Unlock the structure value to edit it"
              onClick={() => update((d) => ({ ...d, readOnly: false }))}
            >
              <IconLockOpen size={16} />
            </ActionIcon>
          </Tooltip>
        }
      />
    );
  }
  if (draft.inputType === 'name') {
    return (
      <LookupTextInput
        label="Compound name"
        placeholder={type.placeholder}
        source={LOOKUPS.structure}
        value={draft.value}
        onChange={(value) => update((d) => ({ ...d, value }))}
        onPick={(item) => update((d) => ({ ...d, value: item.label, readOnly: true }))}
        error={error}
      />
    );
  }
  if (draft.inputType === 'molfile') {
    return (
      <Textarea
        label="Molfile"
        placeholder={type.placeholder}
        autosize
        minRows={4}
        maxRows={12}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        value={draft.value}
        onChange={(event) => {
          const value = event.currentTarget.value;
          update((d) => ({ ...d, value }));
        }}
        error={error}
      />
    );
  }
  return (
    <TextInput
      label={type.label}
      placeholder={type.placeholder}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      value={draft.value}
      onChange={(event) => {
        const value = event.currentTarget.value;
        update((d) => ({ ...d, value }));
      }}
      error={error}
      spellCheck={false}
      autoComplete="off"
    />
  );
}

/** The row's query as the editor should open it: only structure formats are drawn; names and InChIKeys start empty. */
function editorInitial(draft: StructureDraft): StructureText | null {
  const { inputType, value } = draft;
  // A SMARTS row is passed even when empty: the editor then also returns SMARTS.
  return inputType === 'smiles' || inputType === 'smarts' || inputType === 'molfile' ? { format: inputType, value } : null;
}

/**
 * A drawing replaces the query in the row's own format (molfile and SMARTS rows keep query
 * features SMILES cannot hold); a name or InChIKey row becomes a SMILES row.
 */
function applyDrawing(draft: StructureDraft, result: StructureDrawing): StructureDraft {
  if (draft.inputType === 'molfile') return { ...draft, value: result.molfile, readOnly: false };
  if (draft.inputType === 'smarts') return { ...draft, value: result.smarts || result.smiles, readOnly: false };
  const category = draft.inputType === 'smiles' ? draft.category : defaultStructureCategory('smiles');
  return { ...draft, inputType: 'smiles', value: result.smiles, category, readOnly: false };
}

/** Spec §2/§3/§5 structure row: a query structure, its category, properties, id and CAS lists. */
export function StructureEditor(props: EditorProps<'structure'>) {
  const { draft, errors, update } = props;
  const propertyCount = Object.values(draft.properties).filter((value) => value != null).length;
  const [showProperties, setShowProperties] = useState(propertyCount > 0);
  const [drawing, setDrawing] = useState(false);
  const actions = useStructureActions();
  const preset = (rule: Partial<Record<PropertyField, number | null>>) => {
    update((d) => ({ ...d, properties: { ...rule } }));
    setShowProperties(true);
  };

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Structure input"
          size="xs"
          data={INPUT_TYPES.map(({ value, label }) => ({ value, label }))}
          value={draft.inputType}
          onChange={(value) => {
            const inputType = value as StructureInputType;
            // Spec §5: each input has its own default category; a locked look-up value does not carry over.
            update((d) => ({
              ...d,
              inputType,
              category: defaultStructureCategory(inputType),
              readOnly: false,
              value: d.readOnly ? '' : d.value,
            }));
          }}
        />
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPencil size={14} />}
          onClick={() => setDrawing(true)}
          data-testid="draw-structure"
        >
          Draw
        </Button>
        {actions.map((Action, index) => (
          <Action key={index} row={draft} />
        ))}
      </Group>

      <StructureValueField {...props} />
      <StructureHitsPreview draft={draft} />
      <StructureEditorModal
        opened={drawing}
        initial={editorInitial(draft)}
        onClose={() => setDrawing(false)}
        onApply={(result) => {
          update((d) => applyDrawing(d, result));
          setDrawing(false);
        }}
      />

      <Group gap="md" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          <Text size="sm" fw={500} id={`${draft.key}-category`}>
            Search as
          </Text>
          <SegmentedControl
            aria-labelledby={`${draft.key}-category`}
            size="xs"
            data={CATEGORIES}
            value={draft.category}
            onChange={(value) => update((d) => ({ ...d, category: value as StructureCategory }))}
          />
        </Stack>
        <Stack gap={2}>
          <Text size="sm" fw={500} id={`${draft.key}-feature`}>
            Salts
          </Text>
          <SegmentedControl
            aria-labelledby={`${draft.key}-feature`}
            size="xs"
            data={[
              { value: 'desalted', label: 'Desalted' },
              { value: 'asis', label: 'As drawn' },
            ]}
            value={draft.feature}
            onChange={(value) => update((d) => ({ ...d, feature: value as 'desalted' | 'asis' }))}
          />
        </Stack>
        {draft.category === 'similarity' && (
          <Group gap="xs" align="flex-start">
            <DraftNumberInput
              w={130}
              label="Similarity min"
              min={0}
              max={1}
              step={0.05}
              decimalScale={2}
              placeholder="0.7"
              value={draft.similarityMin}
              onNumberChange={(similarityMin) => update((d) => ({ ...d, similarityMin }))}
              error={errors['structure.similarityMin']}
            />
            <DraftNumberInput
              w={130}
              label="Similarity max"
              min={0}
              max={1}
              step={0.05}
              decimalScale={2}
              placeholder="1"
              value={draft.similarityMax}
              onNumberChange={(similarityMax) => update((d) => ({ ...d, similarityMax }))}
              error={errors['structure.similarityMax']}
            />
            {!draft.resultFilter && (
              <DraftNumberInput
                w={150}
                label="Nearest only"
                description="The N most similar"
                min={1}
                max={MAX_SIMILARITY_NEAREST}
                step={50}
                allowDecimal={false}
                thousandSeparator=","
                placeholder="All in range"
                value={draft.similarityNearest}
                onNumberChange={(similarityNearest) => update((d) => ({ ...d, similarityNearest }))}
                error={errors['structure.similarityNearest']}
              />
            )}
          </Group>
        )}
      </Group>

      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={showProperties ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          onClick={() => setShowProperties((value) => !value)}
          aria-expanded={showProperties}
        >
          Structural properties{propertyCount > 0 ? ` (${propertyCount} set)` : ''}
        </Button>
        <Tooltip label={rangeText(RULE_OF_FIVE)}>
          <Button size="compact-sm" variant="light" onClick={() => preset(RULE_OF_FIVE)}>
            Rule of 5
          </Button>
        </Tooltip>
        <Tooltip label={rangeText(RULE_OF_THREE)}>
          <Button size="compact-sm" variant="light" onClick={() => preset(RULE_OF_THREE)}>
            Rule of 3
          </Button>
        </Tooltip>
        {propertyCount > 0 && (
          <Button size="compact-sm" variant="subtle" color="gray" onClick={() => update((d) => ({ ...d, properties: {} }))}>
            Clear properties
          </Button>
        )}
      </Group>
      <Collapse expanded={showProperties}>
        <PropertiesTable {...props} />
      </Collapse>

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextListInput
          label="Structure ids"
          description="Whole numbers; paste a list or upload a file"
          placeholder="e.g. 1201 1202"
          splitOnSpace
          values={draft.strIds}
          onChange={(strIds) => update((d) => ({ ...d, strIds }))}
          error={errors.strIds}
          data-testid="structure-ids"
        />
        <TextListInput
          label="CAS numbers"
          description="Kept apart from structure ids"
          placeholder="e.g. 50-78-2"
          splitOnSpace
          values={draft.casNumbers}
          onChange={(casNumbers) => update((d) => ({ ...d, casNumbers }))}
          error={errors.casNumbers}
          data-testid="cas-numbers"
        />
      </SimpleGrid>
    </Stack>
  );
}
