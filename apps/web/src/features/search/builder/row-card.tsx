import { ActionIcon, Badge, Center, Group, Paper, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { SEARCH_OPERATORS } from '@kb/contracts/search';
import type { SearchOperator, SelectedOption } from '@kb/contracts/search';
import type { FieldErrors } from './row-criteria.ts';
import type { DraftOf, RowDraft } from './row-drafts.ts';
import type { SelectionDraft } from './row-drafts.ts';
import { rowTitle, selectionCountText } from './row-drafts.ts';
import { ActivityEditor } from '../rows/activity-editor.tsx';
import { BibliographyEditor } from '../rows/bibliography-editor.tsx';
import { CollectionEditor } from '../rows/collection-editor.tsx';
import type { EditorProps } from '../rows/editor-props.ts';
import {
  AssayEditor,
  CategoryEditor,
  ClinicalPhaseEditor,
  CompanyEditor,
  DegraderEditor,
  IndicationEditor,
  MechanismEditor,
  SourceEditor,
} from '../rows/selection-editors.tsx';
import { StructureEditor } from '../rows/structure-editor.tsx';
import { TargetEditor } from '../rows/target-editor.tsx';
import { TreeEditor } from '../rows/tree-editor.tsx';
import { UploadButton, UploadError, UploadReport, useRowUpload } from '../uploads/upload-control.tsx';
import { applyUpload, uploadKindsFor } from '../uploads/upload-terms.ts';

/** A selection from the results is not edited here: it says what it holds; a new selection is made in the results. */
function SelectionRowView({ draft }: { draft: SelectionDraft }) {
  return (
    <Stack gap={2} data-testid="selection-row">
      <Text size="sm" fw={500}>
        {selectionCountText(draft.entity, draft.ids.length)} selected in results
      </Text>
      {draft.label && (
        <Text size="xs" c="dimmed">
          {draft.label}
        </Text>
      )}
    </Stack>
  );
}

/** The editor of a draft's option; `update` is narrowed to that option. */
function RowEditor({
  draft,
  errors,
  update,
}: {
  draft: RowDraft;
  errors: FieldErrors;
  update: (change: (draft: RowDraft) => RowDraft) => void;
}) {
  const props = <O extends SelectedOption>(d: DraftOf<O>): EditorProps<O> => ({
    draft: d,
    errors,
    update: (change) => update((current) => (current.selectedOption === d.selectedOption ? change(current as DraftOf<O>) : current)),
  });
  switch (draft.selectedOption) {
    case 'structure':
      return <StructureEditor {...props(draft)} />;
    case 'target':
      return <TargetEditor {...props(draft)} />;
    case 'bibliography':
      return <BibliographyEditor {...props(draft)} />;
    case 'company':
      return <CompanyEditor {...props(draft)} />;
    case 'degrader':
      return <DegraderEditor {...props(draft)} />;
    case 'clinicalphase':
      return <ClinicalPhaseEditor {...props(draft)} />;
    case 'source':
      return <SourceEditor {...props(draft)} />;
    case 'indication':
      return <IndicationEditor {...props(draft)} />;
    case 'activitytypes':
      return <ActivityEditor {...props(draft)} />;
    case 'assay':
      return <AssayEditor {...props(draft)} />;
    case 'activitymechanism':
      return <MechanismEditor {...props(draft)} />;
    case 'compoundcategories':
      return <CategoryEditor {...props(draft)} />;
    case 'treeview':
      return <TreeEditor {...props(draft)} />;
    case 'selection':
      return <SelectionRowView draft={draft} />;
    case 'collection':
      return <CollectionEditor {...props(draft)} />;
  }
}

export interface RowCardProps {
  draft: RowDraft;
  index: number;
  count: number;
  errors: FieldErrors;
  /** Spec §5: the row has no value and stays out of the search. */
  empty: boolean;
  update: (change: (draft: RowDraft) => RowDraft) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}

/** One search row: its header (position, option, move, remove, upload) and its editor. */
export function RowCard({ draft, index, count, errors, empty, update, onMove, onRemove }: RowCardProps) {
  const title = rowTitle(draft);
  const kinds = uploadKindsFor(draft);
  const upload = useRowUpload((result) => update((current) => applyUpload(current, result)));
  const titleId = `row-${draft.key}-title`;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby={titleId}
      id={`row-${draft.key}`}
      data-testid="search-row"
      data-option={draft.selectedOption}
      onKeyDown={(event) => {
        // Alt+↑ / Alt+↓ move the row from anywhere inside it.
        if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
        event.preventDefault();
        onMove(event.key === 'ArrowUp' ? -1 : 1);
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="center">
          <Group gap="xs" wrap="wrap">
            <Badge variant="filled" radius="sm" aria-hidden>
              {index + 1}
            </Badge>
            <Title order={3} size="h5" id={titleId}>
              {title}
            </Title>
            {empty && (
              <Tooltip label="A row without a value is left out of the search.">
                <Badge color="gray" variant="outline" data-testid="row-empty">
                  Empty — left out
                </Badge>
              </Tooltip>
            )}
            {draft.fileName && (
              <Badge color="teal" variant="light" tt="none">
                from {draft.fileName}
              </Badge>
            )}
          </Group>
          <Group gap={4} wrap="nowrap">
            <UploadButton kinds={kinds} busy={upload.busy} onUploaded={upload.upload} />
            <Tooltip label="Move up (Alt+↑)">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move row ${index + 1} up`}
                disabled={index === 0}
                onClick={() => onMove(-1)}
              >
                <IconArrowUp size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move down (Alt+↓)">
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move row ${index + 1} down`}
                disabled={index === count - 1}
                onClick={() => onMove(1)}
              >
                <IconArrowDown size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Remove row">
              <ActionIcon variant="subtle" color="red" aria-label={`Remove row ${index + 1} (${title})`} onClick={onRemove}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <RowEditor draft={draft} errors={errors} update={update} />
        {errors._row && (
          <Badge color="red" variant="light" role="alert">
            {errors._row}
          </Badge>
        )}
        {upload.error && <UploadError message={upload.error} onDismiss={upload.clearError} />}
        {upload.result && <UploadReport result={upload.result} onDismiss={upload.dismiss} />}
      </Stack>
    </Paper>
  );
}

/** The operator joining a row to the next (spec §4: default AND; the last row shows none). */
export function OperatorControl({
  value,
  onChange,
  between,
}: {
  value: SearchOperator | null;
  onChange: (operator: SearchOperator) => void;
  between: [number, number];
}): ReactNode {
  return (
    <Center>
      <SegmentedControl
        size="xs"
        radius="xl"
        aria-label={`Operator between rows ${between[0]} and ${between[1]}`}
        data-testid="row-operator"
        data={SEARCH_OPERATORS.map((operator) => ({ value: operator, label: operator }))}
        value={value ?? 'AND'}
        onChange={(next) => onChange(next as SearchOperator)}
      />
    </Center>
  );
}
