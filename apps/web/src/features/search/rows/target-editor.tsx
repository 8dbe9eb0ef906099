import { Select, Stack } from '@mantine/core';
import type { LookupResult } from '@kb/contracts/lookups';
import { TARGET_CATEGORIES } from '@kb/contracts/search';
import type { TargetTerm } from '@kb/contracts/search';
import type { TargetField } from '../builder/row-drafts.ts';
import { TARGET_LOOKUP } from '../lookups/lookup-sources.ts';
import { LookupPicker } from '../lookups/lookup-picker.tsx';
import type { EditorProps } from './editor-props.ts';

type TargetCategory = (typeof TARGET_CATEGORIES)[number];

const FIELDS: { value: TargetField; label: string; placeholder: string }[] = [
  { value: 'any', label: 'Any field', placeholder: 'Name, gene symbol, UniProt, Entrez or PDB id' },
  { value: 'name', label: 'Name', placeholder: 'e.g. Epidermal growth factor receptor' },
  { value: 'uniprot', label: 'UniProt ID', placeholder: 'e.g. P00533' },
  { value: 'gene', label: 'Official gene name', placeholder: 'e.g. EGFR' },
  { value: 'entrez', label: 'Entrez gene id', placeholder: 'e.g. 1956' },
  { value: 'pdb', label: 'PDB id', placeholder: 'e.g. 1M17' },
];

/** The category a look-up answer matched in (any-field look-ups say which), as the contract names it. */
function categoryOf(field: TargetField, item: LookupResult): TargetCategory[] {
  if (field !== 'any') return [field];
  const matched = item.matchedOn === 'synonym' ? 'name' : item.matchedOn;
  return (TARGET_CATEGORIES as readonly string[]).includes(matched ?? '') ? [matched as TargetCategory] : ['name'];
}

const termKey = (term: TargetTerm): string => `${term.label}\u0000${term.targetCategories.join(',')}\u0000${term.ids?.join(',') ?? ''}`;

/** Spec §3 target term rows: picked or typed targets, each a removable chip (joined by |). */
export function TargetEditor({ draft, errors, update }: EditorProps<'target'>) {
  const field = FIELDS.find((item) => item.value === draft.field) ?? FIELDS[0]!;
  const add = (term: TargetTerm) => update((d) => (d.targets.some((t) => termKey(t) === termKey(term)) ? d : { ...d, targets: [...d.targets, term] }));
  return (
    <Stack gap="sm">
      <Select
        label="Search in"
        w={220}
        data={FIELDS.map(({ value, label }) => ({ value, label }))}
        value={draft.field}
        allowDeselect={false}
        onChange={(value) => value && update((d) => ({ ...d, field: value as TargetField }))}
      />
      <LookupPicker
        label="Targets"
        description="Any of these targets matches. Pick from the suggestions, or use the text as typed."
        placeholder={field.placeholder}
        source={TARGET_LOOKUP[draft.field]}
        chips={draft.targets.map((term) => ({ key: termKey(term), label: term.displayValue ?? term.label, title: `${term.label} (${term.targetCategories.join(', ')})` }))}
        onPick={(item) =>
          add({
            label: item.label,
            targetCategories: categoryOf(draft.field, item),
            operator: '|',
            displayValue: item.detail ? `${item.label} · ${item.detail}` : item.label,
            ...(typeof item.id === 'number' ? { ids: [item.id] } : {}),
          })
        }
        onFree={(text) => add({ label: text, targetCategories: draft.field === 'any' ? [...TARGET_CATEGORIES] : [draft.field], operator: '|', displayValue: text })}
        onRemove={(key) => update((d) => ({ ...d, targets: d.targets.filter((term) => termKey(term) !== key) }))}
        onClear={() => update((d) => ({ ...d, targets: [] }))}
        error={errors.targets}
        data-testid="target-picker"
      />
    </Stack>
  );
}
