import { Alert, Button, FileButton, Group, SegmentedControl, Stack, Table, Text, Textarea } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { CollectionUploadResult } from '@kb/contracts/workspace';
import { COLLECTION_UPLOAD_MAX_BYTES, COLLECTION_UPLOAD_MAX_ENTRIES, workspaceEndpoints } from '@kb/contracts/workspace';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { refreshCollections } from '../workspace-queries.ts';
import type { UploadFormat } from './upload-format.ts';
import { UPLOAD_FORMAT_LABELS, guessUploadFormat, uploadTextError } from './upload-format.ts';

/** The text to upload: pasted, or read from a chosen file (at most 5 MB, checked before reading). */
export function UploadInput({
  text,
  format,
  onText,
  onFormat,
}: {
  text: string;
  format: UploadFormat;
  onText: (text: string, fileName?: string) => void;
  onFormat: (format: UploadFormat) => void;
}) {
  const [fileError, setFileError] = useState<string | null>(null);
  const choose = async (file: File | null) => {
    if (!file) return;
    if (file.size > COLLECTION_UPLOAD_MAX_BYTES) {
      setFileError(`${file.name} is larger than 5 MB: split it into smaller files.`);
      return;
    }
    setFileError(null);
    const content = await file.text();
    onText(content, file.name);
    onFormat(guessUploadFormat(content, file.name));
  };
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <SegmentedControl
          size="xs"
          value={format}
          onChange={(value) => onFormat(value as UploadFormat)}
          data={(Object.keys(UPLOAD_FORMAT_LABELS) as UploadFormat[]).map((value) => ({ value, label: UPLOAD_FORMAT_LABELS[value] }))}
          aria-label="What the lines are"
          data-testid="upload-format"
        />
        <FileButton onChange={(file) => void choose(file)} accept=".smi,.smiles,.txt,.csv,.sdf,.sd,.mol">
          {(props) => (
            <Button {...props} size="xs" variant="default" leftSection={<IconUpload size={14} />}>
              Choose a file…
            </Button>
          )}
        </FileButton>
      </Group>
      <Textarea
        label="Compounds"
        description={`One a line: a SMILES (a name may follow), a structure id, or an SDF. At most ${formatCount(COLLECTION_UPLOAD_MAX_ENTRIES)} lines.`}
        placeholder={'CC(=O)Oc1ccccc1C(=O)O aspirin\n1234'}
        autosize
        minRows={4}
        maxRows={10}
        value={text}
        onChange={(event) => {
          onText(event.currentTarget.value);
          onFormat(guessUploadFormat(event.currentTarget.value));
        }}
        error={fileError}
        data-testid="upload-text"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
      />
    </Stack>
  );
}

/** What an upload matched and added, and the lines that matched nothing (the first 500, with the reason). */
export function UploadReport({ result }: { result: CollectionUploadResult }) {
  return (
    <Stack gap="xs" data-testid="upload-report">
      <Alert color={result.unmatchedCount > 0 ? 'yellow' : 'teal'} variant="light">
        <Text size="sm" data-testid="upload-summary" data-matched={result.matched} data-added={result.changed}>
          {formatCount(result.matched)} of {formatCount(result.entries)} entries matched a compound of the knowledge base;{' '}
          {formatCount(result.changed)} added
          {result.unchanged > 0 ? `, ${formatCount(result.unchanged)} already in the collection` : ''}. The collection now holds{' '}
          {formatCount(result.compounds)}.
        </Text>
      </Alert>
      {result.unmatchedCount > 0 && (
        <>
          <Text size="sm" fw={600}>
            {formatCount(result.unmatchedCount)} {result.unmatchedCount === 1 ? 'line matched' : 'lines matched'} nothing
            {result.unmatched.length < result.unmatchedCount ? ` (the first ${formatCount(result.unmatched.length)} are listed)` : ''}:
          </Text>
          <Table.ScrollContainer minWidth={480} mah={260}>
            <Table striped withTableBorder data-testid="upload-unmatched">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={70}>Line</Table.Th>
                  <Table.Th miw={240}>Text</Table.Th>
                  <Table.Th>Why</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.unmatched.map((line) => (
                  <Table.Tr key={line.line}>
                    <Table.Td>{line.line}</Table.Td>
                    <Table.Td style={{ fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12, wordBreak: 'break-all' }}>
                      {line.text}
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs">{line.reason}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}

/** Pasted or uploaded compounds into one collection, then the report. */
export function useUpload() {
  return useMutation({
    mutationFn: ({ id, text, format, fileName }: { id: number; text: string; format: UploadFormat; fileName?: string }) =>
      callApi(workspaceEndpoints.uploadItems, {
        params: { id },
        body: { text, format, ...(fileName ? { fileName: fileName.slice(0, 300) } : {}) },
      }),
    onSuccess: () => void refreshCollections(),
  });
}

/** The collection page's upload: the input, the send button, the report or the server's refusal. */
export function UploadPanel({ collectionId }: { collectionId: number }) {
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | undefined>();
  const [format, setFormat] = useState<UploadFormat>('smiles');
  const [tried, setTried] = useState(false);
  const upload = useUpload();
  const error = tried ? uploadTextError(text) : null;
  const send = () => {
    setTried(true);
    if (uploadTextError(text) === null) upload.mutate({ id: collectionId, text, format, fileName });
  };
  return (
    <Stack gap="sm" data-testid="upload-panel">
      <UploadInput
        text={text}
        format={format}
        onText={(next, name) => {
          setText(next);
          setFileName(name);
        }}
        onFormat={setFormat}
      />
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <Group justify="flex-end">
        <Button onClick={send} loading={upload.isPending} data-testid="upload-send">
          Add these compounds
        </Button>
      </Group>
      {upload.isError && (
        <Alert color="red" variant="light" role="alert" title="The upload was refused">
          {errorMessage(upload.error)}
        </Alert>
      )}
      {upload.data && <UploadReport result={upload.data} />}
    </Stack>
  );
}
