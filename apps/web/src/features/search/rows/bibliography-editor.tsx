import { ActionIcon, Button, Checkbox, Fieldset, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { BIBLIOGRAPHY_SOURCES } from '@kb/contracts/search';
import type { BibliographySource, JournalDraft, PatentDraft } from '../builder/row-drafts.ts';
import { emptyJournal, emptyPatent } from '../builder/row-drafts.ts';
import { LOOKUPS } from '../lookups/lookup-sources.ts';
import { LookupTextInput } from '../lookups/lookup-text-input.tsx';
import { PickedLookupPicker } from '../lookups/picked-lookup-picker.tsx';
import { TextListInput } from '../lookups/text-list-input.tsx';
import { TextLookupPicker } from '../lookups/text-lookup-picker.tsx';
import { DraftNumberInput } from '../ui/draft-number-input.tsx';
import type { EditorProps } from './editor-props.ts';
import { LEGEND_STYLES } from './editor-props.ts';

const SOURCE_LABELS: Record<BibliographySource, string> = { J: 'Journals (J)', P: 'Patents (P)', O: 'Other (O)' };

function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((current, i) => (i === index ? item : current));
}

function PatentRows({ draft, errors, update }: EditorProps<'bibliography'>) {
  const set = (index: number, patent: PatentDraft) => update((d) => ({ ...d, patents: replaceAt(d.patents, index, patent) }));
  return (
    <Fieldset legend="Patents" variant="unstyled" p={0} styles={LEGEND_STYLES}>
      <Stack gap={6}>
        {draft.patents.map((patent, index) => (
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              w={90}
              aria-label={`Patent ${index + 1} country code`}
              placeholder="US"
              maxLength={4}
              value={patent.countryCode}
              onChange={(event) => set(index, { ...patent, countryCode: event.currentTarget.value })}
              error={errors[`patents.${index}.countryCode`]}
            />
            <LookupTextInput
              w={220}
              aria-label={`Patent ${index + 1} number`}
              placeholder="Patent number"
              source={LOOKUPS.patent}
              value={patent.patentNo}
              onChange={(patentNo) => set(index, { ...patent, patentNo })}
              error={errors[`patents.${index}.patentNo`]}
            />
            <DraftNumberInput
              w={100}
              aria-label={`Patent ${index + 1} year`}
              placeholder="Year"
              allowDecimal={false}
              value={patent.year}
              onNumberChange={(year) => set(index, { ...patent, year })}
              error={errors[`patents.${index}.year`]}
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              mt={4}
              aria-label={`Remove patent ${index + 1}`}
              onClick={() => update((d) => ({ ...d, patents: d.patents.filter((_, i) => i !== index) }))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconPlus size={14} />}
          onClick={() => update((d) => ({ ...d, patents: [...d.patents, emptyPatent()] }))}
          w="fit-content"
        >
          Add patent
        </Button>
      </Stack>
    </Fieldset>
  );
}

function JournalRows({ draft, errors, update }: EditorProps<'bibliography'>) {
  const set = (index: number, journal: JournalDraft) => update((d) => ({ ...d, journals: replaceAt(d.journals, index, journal) }));
  return (
    <Fieldset legend="Journal citations" variant="unstyled" p={0} styles={LEGEND_STYLES}>
      <Stack gap={6}>
        {draft.journals.map((journal, index) => (
          <Group key={index} gap="xs" align="flex-start" wrap="wrap">
            <LookupTextInput
              w={260}
              aria-label={`Journal ${index + 1} name`}
              placeholder="Journal"
              source={LOOKUPS.journal}
              value={journal.journalName}
              onChange={(journalName) => set(index, { ...journal, journalName })}
              error={errors[`journals.${index}.journalName`]}
            />
            <DraftNumberInput
              w={90}
              aria-label={`Journal ${index + 1} year`}
              placeholder="Year"
              allowDecimal={false}
              value={journal.year}
              onNumberChange={(year) => set(index, { ...journal, year })}
              error={errors[`journals.${index}.year`]}
            />
            {(['volume', 'issue', 'pageNo'] as const).map((field) => (
              <TextInput
                key={field}
                w={80}
                aria-label={`Journal ${index + 1} ${field === 'pageNo' ? 'page' : field}`}
                placeholder={field === 'pageNo' ? 'Page' : field === 'volume' ? 'Vol.' : 'Issue'}
                value={journal[field]}
                onChange={(event) => set(index, { ...journal, [field]: event.currentTarget.value })}
                error={errors[`journals.${index}.${field}`]}
              />
            ))}
            <ActionIcon
              variant="subtle"
              color="gray"
              mt={4}
              aria-label={`Remove journal ${index + 1}`}
              onClick={() => update((d) => ({ ...d, journals: d.journals.filter((_, i) => i !== index) }))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconPlus size={14} />}
          onClick={() => update((d) => ({ ...d, journals: [...d.journals, emptyJournal()] }))}
          w="fit-content"
        >
          Add journal citation
        </Button>
      </Stack>
    </Fieldset>
  );
}

/** Spec §2/§3 bibliography: documents, PubMed, DOI, patents, journals, authors, years, companies, data sources. */
export function BibliographyEditor(props: EditorProps<'bibliography'>) {
  const { draft, errors, update } = props;
  return (
    <Stack gap="sm">
      <PickedLookupPicker
        label="Documents"
        placeholder="Title words, citation, PubMed id, DOI or patent number"
        source={LOOKUPS.bibliography}
        items={draft.documents}
        onChange={(documents) => update((d) => ({ ...d, documents }))}
        error={errors.refIds}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextListInput
          label="PubMed ids"
          placeholder="e.g. 19318520"
          splitOnSpace
          values={draft.pubmedIds}
          onChange={(pubmedIds) => update((d) => ({ ...d, pubmedIds }))}
          error={errors.pubmedIds}
        />
        <TextLookupPicker
          label="DOIs"
          placeholder="e.g. 10.1021/jm901137j"
          source={LOOKUPS.doi}
          allowFree
          values={draft.dois}
          onChange={(dois) => update((d) => ({ ...d, dois }))}
          error={errors.dois}
        />
      </SimpleGrid>
      <PatentRows {...props} />
      <JournalRows {...props} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextListInput
          label="Authors"
          placeholder="e.g. Smith J"
          values={draft.authors}
          onChange={(authors) => update((d) => ({ ...d, authors }))}
          error={errors.authors}
        />
        <TextLookupPicker
          label="Companies"
          placeholder="Assignee or affiliation"
          source={LOOKUPS.company}
          allowFree
          values={draft.companies}
          onChange={(companies) => update((d) => ({ ...d, companies }))}
          error={errors.companies}
        />
      </SimpleGrid>
      <Group gap="md" align="flex-start" wrap="wrap">
        <DraftNumberInput
          w={120}
          label="From year"
          placeholder="e.g. 2010"
          allowDecimal={false}
          value={draft.fromYear}
          onNumberChange={(fromYear) => update((d) => ({ ...d, fromYear }))}
          error={errors['yearRange.fromYear']}
        />
        <DraftNumberInput
          w={120}
          label="To year"
          placeholder="e.g. 2020"
          allowDecimal={false}
          value={draft.toYear}
          onNumberChange={(toYear) => update((d) => ({ ...d, toYear }))}
          error={errors['yearRange.toYear']}
        />
        <Checkbox.Group
          label="Data source"
          value={draft.sources}
          onChange={(value) => update((d) => ({ ...d, sources: BIBLIOGRAPHY_SOURCES.filter((source) => value.includes(source)) }))}
        >
          <Group gap="md" mt={8}>
            {BIBLIOGRAPHY_SOURCES.map((source) => (
              <Checkbox key={source} value={source} label={SOURCE_LABELS[source]} />
            ))}
          </Group>
        </Checkbox.Group>
      </Group>
    </Stack>
  );
}
