import { ActionIcon, Button, Checkbox, Fieldset, Group, Stack } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ASSAY_TYPES, DEGRADER_TYPES } from '@kb/contracts/search';
import type { AssayType, DegraderType, StrainDraft } from '../builder/row-drafts.ts';
import { emptyStrain } from '../builder/row-drafts.ts';
import { LOOKUPS } from '../lookups/lookup-sources.ts';
import { LookupTextInput } from '../lookups/lookup-text-input.tsx';
import { PickedLookupPicker } from '../lookups/picked-lookup-picker.tsx';
import { TextListInput } from '../lookups/text-list-input.tsx';
import { TextLookupPicker } from '../lookups/text-lookup-picker.tsx';
import type { EditorProps } from './editor-props.ts';
import { LEGEND_STYLES } from './editor-props.ts';

export function CompanyEditor({ draft, errors, update }: EditorProps<'company'>) {
  return (
    <PickedLookupPicker
      label="Companies"
      description="Companies named in references and development records; any of them matches."
      placeholder="e.g. Novartis"
      source={LOOKUPS.company}
      allowFree
      items={draft.companies}
      onChange={(companies) => update((d) => ({ ...d, companies }))}
      error={errors.companyIds ?? errors.companyNames}
    />
  );
}

const DEGRADER_LABELS: Record<DegraderType, string> = {
  monovalent: 'Monovalent degraders (molecular glues)',
  bivalent: 'Bivalent degraders (PROTACs)',
};

export function DegraderEditor({ draft, errors, update }: EditorProps<'degrader'>) {
  return (
    <Stack gap="sm">
      <Checkbox.Group
        label="Degrader type"
        value={draft.degraderTypes}
        onChange={(value) => update((d) => ({ ...d, degraderTypes: DEGRADER_TYPES.filter((type) => value.includes(type)) }))}
        error={errors.degraderTypes}
      >
        <Group gap="lg" mt={6}>
          {DEGRADER_TYPES.map((type) => (
            <Checkbox key={type} value={type} label={DEGRADER_LABELS[type]} />
          ))}
        </Group>
      </Checkbox.Group>
      <TextListInput
        label="E3 ligases (optional)"
        placeholder="e.g. CRBN, VHL"
        values={draft.ligases}
        onChange={(ligases) => update((d) => ({ ...d, ligases }))}
        error={errors.ligases}
      />
    </Stack>
  );
}

export function ClinicalPhaseEditor({ draft, errors, update }: EditorProps<'clinicalphase'>) {
  return (
    <TextLookupPicker
      label="Clinical phases or statuses"
      description="Highest phase or development status; any of them matches."
      placeholder="e.g. Phase II, Launched"
      source={LOOKUPS.clinicalPhase}
      values={draft.phases}
      onChange={(phases) => update((d) => ({ ...d, phases }))}
      error={errors.phases}
    />
  );
}

function StrainRow({
  strain,
  index,
  onChange,
  onRemove,
}: {
  strain: StrainDraft;
  index: number;
  onChange: (strain: StrainDraft) => void;
  onRemove: () => void;
}) {
  return (
    <Group gap="xs" align="flex-start" wrap="wrap">
      <LookupTextInput
        w={180}
        aria-label={`Strain ${index + 1} genus`}
        placeholder="Genus"
        source={LOOKUPS.strainGenus}
        value={strain.genus}
        onChange={(genus) => onChange({ ...strain, genus })}
      />
      <LookupTextInput
        w={180}
        aria-label={`Strain ${index + 1} species`}
        placeholder="Species"
        source={LOOKUPS.strainSpecies}
        value={strain.species}
        onChange={(species) => onChange({ ...strain, species })}
      />
      <LookupTextInput
        w={180}
        aria-label={`Strain ${index + 1} strain`}
        placeholder="Strain"
        source={LOOKUPS.strainStrain}
        value={strain.strainType}
        onChange={(strainType) => onChange({ ...strain, strainType })}
      />
      <ActionIcon variant="subtle" color="gray" mt={4} aria-label={`Remove strain ${index + 1}`} onClick={onRemove}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}

export function SourceEditor({ draft, errors, update }: EditorProps<'source'>) {
  return (
    <Stack gap="sm">
      <PickedLookupPicker
        label="Sources"
        description="Organisms, tissues or cell lines the data was measured in."
        placeholder="e.g. Homo sapiens"
        source={LOOKUPS.source}
        items={draft.taxonomy}
        onChange={(taxonomy) => update((d) => ({ ...d, taxonomy }))}
        error={errors.taxonomyIds}
      />
      <Fieldset legend="Strains (genus, species, strain)" variant="unstyled" p={0} styles={LEGEND_STYLES}>
        <Stack gap={6}>
          {draft.strains.map((strain, index) => (
            <StrainRow
              key={index}
              strain={strain}
              index={index}
              onChange={(next) => update((d) => ({ ...d, strains: d.strains.map((s, i) => (i === index ? next : s)) }))}
              onRemove={() => update((d) => ({ ...d, strains: d.strains.filter((_, i) => i !== index) }))}
            />
          ))}
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconPlus size={14} />}
            w="fit-content"
            onClick={() => update((d) => ({ ...d, strains: [...d.strains, emptyStrain()] }))}
          >
            Add strain
          </Button>
        </Stack>
      </Fieldset>
    </Stack>
  );
}

export function IndicationEditor({ draft, errors, update }: EditorProps<'indication'>) {
  return (
    <PickedLookupPicker
      label="Indications"
      description="Therapeutic indications by name or MeSH id; any of them matches."
      placeholder="e.g. Breast neoplasms"
      source={LOOKUPS.indication}
      allowFree
      items={draft.indications}
      onChange={(indications) => update((d) => ({ ...d, indications }))}
      error={errors.indicationIds ?? errors.indicationNames}
    />
  );
}

const ASSAY_LABELS: Record<AssayType, string> = {
  binding: 'Binding',
  functional: 'Functional',
  adme: 'ADME',
  toxicity: 'Toxicity',
  physicochemical: 'Physicochemical',
  unassigned: 'Unassigned',
};

export function AssayEditor({ draft, errors, update }: EditorProps<'assay'>) {
  return (
    <Stack gap="sm">
      <Checkbox.Group
        label="Assay types"
        value={draft.assayTypes}
        onChange={(value) => update((d) => ({ ...d, assayTypes: ASSAY_TYPES.filter((type) => value.includes(type)) }))}
        error={errors.assayTypes}
      >
        <Group gap="md" mt={6}>
          {ASSAY_TYPES.map((type) => (
            <Checkbox key={type} value={type} label={ASSAY_LABELS[type]} />
          ))}
        </Group>
      </Checkbox.Group>
      <TextListInput
        label="Assay method names"
        placeholder="e.g. Radioligand binding assay"
        values={draft.methodNames}
        onChange={(methodNames) => update((d) => ({ ...d, methodNames }))}
        error={errors.methodNames}
      />
    </Stack>
  );
}

export function MechanismEditor({ draft, errors, update }: EditorProps<'activitymechanism'>) {
  return (
    <TextLookupPicker
      label="Activity mechanisms"
      placeholder="e.g. Inhibitor, Agonist"
      source={LOOKUPS.activityMechanism}
      values={draft.mechanisms}
      onChange={(mechanisms) => update((d) => ({ ...d, mechanisms }))}
      error={errors.mechanisms}
    />
  );
}

export function CategoryEditor({ draft, errors, update }: EditorProps<'compoundcategories'>) {
  return (
    <TextLookupPicker
      label="Compound categories"
      placeholder="e.g. Natural product"
      source={LOOKUPS.moleculeCategory}
      values={draft.categories}
      onChange={(categories) => update((d) => ({ ...d, categories }))}
      error={errors.categories}
    />
  );
}
