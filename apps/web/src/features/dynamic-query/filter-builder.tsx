import { ActionIcon, Button, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { DqColumnInfo, DqEntityInfo, DqOperator } from '@kb/contracts/dynamic-query';
import { DQ_LIMITS, DQ_OPERATOR_LABELS, operatorArity } from '@kb/contracts/dynamic-query';
import type { FilterDraft } from './dq-draft.ts';
import { newFilter } from './dq-draft.ts';
import { TYPE_LABELS } from './type-labels.ts';

/** The input a column's type takes: numbers as numbers, dates as dates, text as text. */
function inputType(type: DqColumnInfo['type']): string {
  if (type === 'date') return 'date';
  if (type === 'number' || type === 'integer') return 'number';
  return 'text';
}

function FilterRow({
  entity,
  filter,
  index,
  onChange,
  onRemove,
}: {
  entity: DqEntityInfo;
  filter: FilterDraft;
  index: number;
  onChange: (next: FilterDraft) => void;
  onRemove: () => void;
}) {
  const column = entity.columns.find((c) => c.key === filter.column) ?? entity.columns[0]!;
  const arity = operatorArity(filter.operator);
  const label = `Filter ${index + 1}`;
  const valueInput = (which: 'value' | 'value2', aria: string) => (
    <TextInput
      size="xs"
      type={inputType(column.type)}
      step={column.type === 'number' ? 'any' : undefined}
      aria-label={aria}
      placeholder={column.type === 'date' ? 'YYYY-MM-DD' : 'value'}
      maxLength={DQ_LIMITS.maxTextLength}
      value={filter[which]}
      onChange={(event) => onChange({ ...filter, [which]: event.currentTarget.value })}
      w={150}
      data-testid={`dq-filter-${which}`}
    />
  );
  return (
    <Group gap="xs" wrap="wrap" align="flex-start" data-testid="dq-filter" role="group" aria-label={label}>
      <Select
        size="xs"
        aria-label={`${label}: column`}
        data={entity.columns.map((c) => ({ value: c.key, label: `${c.label} (${TYPE_LABELS[c.type]})` }))}
        value={column.key}
        allowDeselect={false}
        searchable
        onChange={(key) => {
          const next = entity.columns.find((c) => c.key === key);
          // Another column may be another type: its first operator and empty values.
          if (next) onChange({ ...newFilter(next), id: filter.id });
        }}
        w={230}
        data-testid="dq-filter-column"
      />
      <Select
        size="xs"
        aria-label={`${label}: operator`}
        data={column.operators.map((op) => ({ value: op, label: DQ_OPERATOR_LABELS[op] }))}
        value={filter.operator}
        allowDeselect={false}
        onChange={(op) => op && onChange({ ...filter, operator: op as DqOperator })}
        w={140}
        data-testid="dq-filter-operator"
      />
      {arity === 'one' && valueInput('value', `${label}: value`)}
      {arity === 'two' && (
        <>
          {valueInput('value', `${label}: from`)}
          <Text size="xs" mt={6}>
            and
          </Text>
          {valueInput('value2', `${label}: to`)}
        </>
      )}
      {arity === 'list' && (
        <Textarea
          size="xs"
          autosize
          minRows={1}
          maxRows={4}
          w={260}
          aria-label={`${label}: values, separated by commas or new lines`}
          placeholder="values, separated by commas"
          value={filter.values}
          onChange={(event) => onChange({ ...filter, values: event.currentTarget.value })}
          data-testid="dq-filter-values"
        />
      )}
      <ActionIcon variant="subtle" color="red" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove} mt={2}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}

/** Typed filters, all of which a row must meet (AND); each offers only its column type's operators. */
export function FilterBuilder({
  entity,
  filters,
  onChange,
}: {
  entity: DqEntityInfo;
  filters: FilterDraft[];
  onChange: (filters: FilterDraft[]) => void;
}) {
  return (
    <Stack gap="xs">
      {filters.length === 0 && (
        <Text size="xs" c="dimmed">
          No filters: every row of the table.
        </Text>
      )}
      {filters.map((filter, index) => (
        <FilterRow
          key={filter.id}
          entity={entity}
          filter={filter}
          index={index}
          onChange={(next) => onChange(filters.map((f) => (f.id === filter.id ? next : f)))}
          onRemove={() => onChange(filters.filter((f) => f.id !== filter.id))}
        />
      ))}
      <Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={filters.length >= DQ_LIMITS.maxFilters}
          onClick={() => onChange([...filters, newFilter(entity.columns[0]!)])}
          data-testid="dq-add-filter"
        >
          Add filter
        </Button>
        {filters.length > 1 && (
          <Text size="xs" c="dimmed">
            A row must meet every filter.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
