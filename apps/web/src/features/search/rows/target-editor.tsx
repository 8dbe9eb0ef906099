import { Select, Stack } from '@mantine/core';
import { useState } from 'react';
import type { LookupResult } from '@kb/contracts/lookups';
import { TARGET_CATEGORIES } from '@kb/contracts/search';
import type { TargetTerm } from '@kb/contracts/search';
import type { TargetField } from '../builder/row-drafts.ts';
import { TARGET_LOOKUP } from '../lookups/lookup-sources.ts';
import { LookupPicker } from '../lookups/lookup-picker.tsx';
import type { EditorProps } from './editor-props.ts';
import { TargetRowSummary, TypedCount, useTypedTargetCounts } from './target-resolve.tsx';

/** Family items of the target look-ups carry this id prefix (`family:12`, modules/lookups/lookup-families.ts). */
const FAMILY_ID = /^family:(\d+)$/;

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

const termKey = (term: TargetTerm): string =>
  `${term.label}\u0000${term.targetCategories.join(',')}\u0000${term.ids?.join(',') ?? ''}\u0000${term.classIds?.join(',') ?? ''}`;

/** A look-up answer as a term: a family by its class id, a target by its id. */
function pickedTerm(field: TargetField, item: LookupResult): TargetTerm {
  const family = typeof item.id === 'string' ? FAMILY_ID.exec(item.id) : null;
  if (family)
    return {
      label: item.label,
      targetCategories: ['name'],
      operator: '|',
      displayValue: `${item.label} (family)`,
      classIds: [Number(family[1])],
    };
  return {
    label: item.label,
    targetCategories: categoryOf(field, item),
    operator: '|',
    displayValue: item.detail ? `${item.label} · ${item.detail}` : item.label,
    ...(typeof item.id === 'number' ? { ids: [item.id] } : {}),
  };
}

/** Spec §3 target term rows: picked or typed targets, each a removable chip (joined by |). */
export function TargetEditor({ draft, errors, update }: EditorProps<'target'>) {
  const field = FIELDS.find((item) => item.value === draft.field) ?? FIELDS[0]!;
  const categories: TargetCategory[] = draft.field === 'any' ? [...TARGET_CATEGORIES] : [draft.field];
  const [typed, setTyped] = useState('');
  const typedCounts = useTypedTargetCounts(typed, categories);
  const add = (term: TargetTerm) =>
    update((d) => (d.targets.some((t) => termKey(t) === termKey(term)) ? d : { ...d, targets: [...d.targets, term] }));
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
      <Stack gap={4}>
        <LookupPicker
          label="Targets"
          description="Any of these targets matches. Pick a target or a family from the suggestions, or use the text as typed: a family name, a prefix (JAK) or a wildcard (JAK*, CDK?) stands for every target it matches."
          placeholder={field.placeholder}
          source={TARGET_LOOKUP[draft.field]}
          chips={draft.targets.map((term) => ({
            key: termKey(term),
            label: term.displayValue ?? term.label,
            title: `${term.label} (${term.classIds?.length ? 'family' : term.targetCategories.join(', ')})`,
          }))}
          onPick={(item) => add(pickedTerm(draft.field, item))}
          onSearchChange={setTyped}
          freeLabel={(text) => (
            <>
              Use “{text}” as typed
              <TypedCount loading={typedCounts.loading} error={typedCounts.error} count={typedCounts.asTyped?.count} />
            </>
          )}
          freeChoices={(text) =>
            typedCounts.asPrefix
              ? [
                  {
                    text: `${text}*`,
                    label: (
                      <>
                        Use “{text}*”: every target starting with “{text}”
                        <TypedCount loading={false} error={null} count={typedCounts.asPrefix.count} />
                      </>
                    ),
                  },
                ]
              : []
          }
          onFree={(text) => add({ label: text, targetCategories: categories, operator: '|', displayValue: text })}
          onRemove={(key) => update((d) => ({ ...d, targets: d.targets.filter((term) => termKey(term) !== key) }))}
          onClear={() => update((d) => ({ ...d, targets: [] }))}
          error={errors.targets}
          data-testid="target-picker"
        />
        <TargetRowSummary terms={draft.targets} />
      </Stack>
    </Stack>
  );
}
