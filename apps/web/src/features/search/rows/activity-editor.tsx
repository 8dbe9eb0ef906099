import { ActionIcon, Button, Group, Select, Stack } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ACTIVITY_PREFIXES } from '@kb/contracts/search';
import type { ActivityPrefix, ActivityTermDraft } from '../builder/row-drafts.ts';
import { emptyActivityTerm } from '../builder/row-drafts.ts';
import { LOOKUPS, activityUomSource } from '../lookups/lookup-sources.ts';
import { LookupTextInput } from '../lookups/lookup-text-input.tsx';
import { DraftNumberInput } from '../ui/draft-number-input.tsx';
import type { EditorProps } from './editor-props.ts';

const ANY = 'any';
const PREFIX_LABELS: Record<ActivityPrefix, string> = { '<': '<', '<=': '≤', '>': '>', '>=': '≥', '=': '=', R: 'Range (R)' };

function ActivityLine({
  term,
  index,
  errors,
  onChange,
  onRemove,
  removable,
}: {
  term: ActivityTermDraft;
  index: number;
  errors: Record<string, string>;
  onChange: (term: ActivityTermDraft) => void;
  onRemove: () => void;
  removable: boolean;
}) {
  const at = (field: string) => errors[`activities.${index}.${field}`];
  const type = term.activityType.trim();
  return (
    <Group gap="xs" align="flex-start" wrap="wrap" data-testid="activity-line">
      <LookupTextInput
        w={180}
        label={index === 0 ? 'Activity type' : undefined}
        aria-label={`Activity type ${index + 1}`}
        placeholder="e.g. IC50"
        source={LOOKUPS.activityType}
        value={term.activityType}
        onChange={(activityType) => onChange({ ...term, activityType })}
        error={at('activityType')}
      />
      <LookupTextInput
        w={110}
        label={index === 0 ? 'Unit' : undefined}
        aria-label={`Unit ${index + 1}`}
        placeholder={type ? 'Any unit' : 'Type first'}
        // Units are those used with this activity type (spec §7 activityendpoints/by/activityuom).
        source={activityUomSource(type)}
        suggestOnFocus={type.length > 0}
        disabled={!type}
        value={term.activityUom}
        onChange={(activityUom) => onChange({ ...term, activityUom })}
        error={at('activityUom')}
      />
      <Select
        w={120}
        // The comparison of the measured value (<, ≤, =, ≥, >, a range): the number is the next field.
        label={index === 0 ? 'Relation' : undefined}
        aria-label={`Relation ${index + 1}`}
        data={[{ value: ANY, label: 'Any value' }, ...ACTIVITY_PREFIXES.map((prefix) => ({ value: prefix, label: PREFIX_LABELS[prefix] }))]}
        value={term.prefix ?? ANY}
        allowDeselect={false}
        onChange={(value) => onChange({ ...term, prefix: !value || value === ANY ? null : (value as ActivityPrefix) })}
        error={at('prefix')}
      />
      {term.prefix && (
        <DraftNumberInput
          w={105}
          label={index === 0 ? (term.prefix === 'R' ? 'Minimum' : 'Value') : undefined}
          aria-label={term.prefix === 'R' ? `Minimum ${index + 1}` : `Value ${index + 1}`}
          placeholder={term.prefix === 'R' ? 'Min' : 'Value'}
          value={term.minValue}
          onNumberChange={(minValue) => onChange({ ...term, minValue })}
          error={at('minValue')}
        />
      )}
      {term.prefix === 'R' && (
        <DraftNumberInput
          w={105}
          label={index === 0 ? 'Maximum' : undefined}
          aria-label={`Maximum ${index + 1}`}
          placeholder="Max"
          value={term.maxValue}
          onNumberChange={(maxValue) => onChange({ ...term, maxValue })}
          error={at('maxValue')}
        />
      )}
      {removable && (
        <ActionIcon
          variant="subtle"
          color="gray"
          mt={index === 0 ? 28 : 4}
          aria-label={`Remove activity type ${index + 1}`}
          onClick={onRemove}
        >
          <IconTrash size={16} />
        </ActionIcon>
      )}
    </Group>
  );
}

/** Spec §3 activity rows: type, unit, prefix (< <= > >= = R) and value(s); R shows minimum and maximum. */
export function ActivityEditor({ draft, errors, update }: EditorProps<'activitytypes'>) {
  return (
    <Stack gap="xs">
      {draft.activities.map((term, index) => (
        <ActivityLine
          key={index}
          term={term}
          index={index}
          errors={errors}
          removable={draft.activities.length > 1}
          onChange={(next) => update((d) => ({ ...d, activities: d.activities.map((t, i) => (i === index ? next : t)) }))}
          onRemove={() => update((d) => ({ ...d, activities: d.activities.filter((_, i) => i !== index) }))}
        />
      ))}
      <Button
        size="compact-xs"
        variant="subtle"
        w="fit-content"
        leftSection={<IconPlus size={14} />}
        onClick={() => update((d) => ({ ...d, activities: [...d.activities, emptyActivityTerm()] }))}
      >
        Add activity type
      </Button>
    </Stack>
  );
}
