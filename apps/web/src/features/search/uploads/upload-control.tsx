import { Alert, Badge, Button, CloseButton, FileButton, Group, List, Menu, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileUpload, IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { uploadEndpoints } from '@kb/contracts/uploads';
import type { UploadValidateResponse } from '@kb/contracts/uploads';
import { callApi, downloadApi, errorMessage } from '../../../app/api-client.ts';
import { useSessionStore } from '../../../app/stores/session-store.ts';
import { formatCount } from '../../../app/format/count-format.ts';
import { saveBlob } from '../../../app/ui/save-blob.ts';
import type { UploadKind } from './upload-terms.ts';
import { bytesToBase64, checkUploadFile, mergedInUpload, validTermCount } from './upload-terms.ts';
import { countNoun } from '../../../app/format/plural.ts';

const ACCEPT = '.txt,.csv,.xlsx,text/plain,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Terms listed in the report before "and N more" (the download has them all). */
const LISTED = 50;

async function validateFile(kind: UploadKind, file: File): Promise<UploadValidateResponse> {
  const problem = checkUploadFile(file);
  if (problem) throw new Error(problem);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return callApi(uploadEndpoints.validate, { body: { listType: kind.listType, fileName: file.name, contentBase64: bytesToBase64(bytes) } });
}

/** "Upload file" for a list-type row; one menu entry per list the row accepts. */
export function UploadButton({
  kinds,
  onUploaded,
  busy,
}: {
  kinds: readonly UploadKind[];
  onUploaded: (file: File, kind: UploadKind) => void;
  busy: boolean;
}) {
  // Which list the next chosen file is; a ref, as the file dialog answers after the menu closed.
  const kind = useRef<UploadKind | null>(null);
  // Cleared after each file so that choosing the same file again (after fixing it) uploads it again.
  const resetRef = useRef<() => void>(null);
  const chosen = (file: File | null, as: UploadKind | null | undefined) => {
    if (file && as) onUploaded(file, as);
    resetRef.current?.();
  };
  if (kinds.length === 0) return null;
  const single = kinds.length === 1 ? kinds[0] : undefined;
  if (single) {
    return (
      <FileButton accept={ACCEPT} resetRef={resetRef} onChange={(file) => chosen(file, single)}>
        {(props) => (
          <Button
            {...props}
            size="compact-xs"
            variant="light"
            leftSection={<IconFileUpload size={14} />}
            loading={busy}
            aria-label={`Upload a file of ${single.label.toLowerCase()}`}
          >
            Upload file
          </Button>
        )}
      </FileButton>
    );
  }
  return (
    <FileButton accept={ACCEPT} resetRef={resetRef} onChange={(file) => chosen(file, kind.current)}>
      {(props) => (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button size="compact-xs" variant="light" leftSection={<IconFileUpload size={14} />} loading={busy}>
              Upload file
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>A file (.txt, .csv, .xlsx) of</Menu.Label>
            {kinds.map((option) => (
              <Menu.Item
                key={option.listType}
                onClick={() => {
                  kind.current = option;
                  props.onClick();
                }}
              >
                {option.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </FileButton>
  );
}

/** A file's valid, invalid and unidentified terms, with the two follow-ups for unidentified ones. */
export function UploadReport({ result, onDismiss }: { result: UploadValidateResponse; onDismiss: () => void }) {
  const userId = useSessionStore((state) => state.userId);
  const download = useMutation({
    mutationFn: async () => {
      const blob = await downloadApi(uploadEndpoints.unreportedTermsDownload, {
        body: { listType: result.listType, fileName: result.fileName, terms: result.unidentified },
      });
      saveBlob(blob, `unidentified-${result.fileName.replace(/\.[^.]+$/, '')}.txt`);
    },
  });
  const report = useMutation({
    mutationFn: () =>
      callApi(uploadEndpoints.reportTermsSave, {
        body: { user_id: userId ?? 0, listType: result.listType, fileName: result.fileName, terms: result.unidentified.slice(0, 10_000) },
      }),
  });
  const added = validTermCount(result);
  const merged = mergedInUpload(result);
  return (
    <Paper withBorder p="sm" radius="sm" data-testid="upload-report" aria-label={`Upload report for ${result.fileName}`} role="region">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {result.fileName}: {countNoun(result.total, 'term')} read
          </Text>
          <Group gap="xs">
            <Badge color="green" variant="light" data-testid="upload-valid-count">
              {formatCount(added)} added to the row
            </Badge>
            {result.invalid.length > 0 && (
              <Badge color="red" variant="light" data-testid="upload-invalid-count">
                {formatCount(result.invalid.length)} invalid
              </Badge>
            )}
            {result.unidentified.length > 0 && (
              <Badge color="orange" variant="light" data-testid="upload-unidentified-count">
                {formatCount(result.unidentified.length)} unidentified
              </Badge>
            )}
          </Group>
        </Stack>
        <CloseButton aria-label="Close the upload report" onClick={onDismiss} />
      </Group>

      {result.valid.length > 0 && (
        <Stack gap={2} mt="xs">
          <Text size="xs" fw={600}>
            Valid (added)
          </Text>
          <Text size="xs" data-testid="upload-valid-terms" style={{ wordBreak: 'break-word' }}>
            {result.valid
              .slice(0, LISTED)
              .map((item) => (item.label && item.label !== item.term ? `${item.term} (${item.label})` : item.term))
              .join(', ')}
            {result.valid.length > LISTED ? ` and ${formatCount(result.valid.length - LISTED)} more` : ''}
          </Text>
        </Stack>
      )}

      {merged.length > 0 && (
        <Text size="xs" mt={4} c="dimmed" data-testid="upload-merged-terms">
          Same target, one chip:{' '}
          {merged
            .slice(0, LISTED)
            .map((item) => `${item.term} = ${item.into}`)
            .join(', ')}
          {merged.length > LISTED ? ` and ${formatCount(merged.length - LISTED)} more` : ''}
        </Text>
      )}

      {result.invalid.length > 0 && (
        <Stack gap={2} mt="xs">
          <Text size="xs" fw={600}>
            Invalid (wrong form, left out)
          </Text>
          <ScrollArea.Autosize mah={120}>
            <List size="xs" spacing={0} data-testid="upload-invalid-terms">
              {result.invalid.slice(0, LISTED).map((item, index) => (
                <List.Item key={`${item.term}-${index}`}>
                  <Text span size="xs" ff="monospace">
                    {item.term}
                  </Text>{' '}
                  — {item.reason}
                </List.Item>
              ))}
            </List>
          </ScrollArea.Autosize>
          {result.invalid.length > LISTED && (
            <Text size="xs" c="dimmed">
              and {formatCount(result.invalid.length - LISTED)} more
            </Text>
          )}
        </Stack>
      )}

      {result.unidentified.length > 0 && (
        <Stack gap={4} mt="xs">
          <Text size="xs" fw={600}>
            Unidentified (not in the knowledge base)
          </Text>
          <Text size="xs" ff="monospace" data-testid="upload-unidentified-terms" style={{ wordBreak: 'break-all' }}>
            {result.unidentified.slice(0, LISTED).join(', ')}
            {result.unidentified.length > LISTED ? ` and ${formatCount(result.unidentified.length - LISTED)} more` : ''}
          </Text>
          <Group gap="xs">
            <Button
              size="compact-xs"
              variant="default"
              leftSection={<IconDownload size={14} />}
              loading={download.isPending}
              onClick={() => download.mutate()}
            >
              Download unidentified terms
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              leftSection={<IconSend size={14} />}
              loading={report.isPending}
              disabled={userId === null || report.isSuccess}
              onClick={() => report.mutate()}
            >
              {report.isSuccess ? 'Reported' : 'Report to curators'}
            </Button>
          </Group>
          {download.isError && (
            <Text size="xs" c="red" role="alert">
              The download failed: {errorMessage(download.error)}
            </Text>
          )}
          {report.isError && (
            <Text size="xs" c="red" role="alert">
              Reporting failed: {errorMessage(report.error)}
            </Text>
          )}
          {report.isSuccess && (
            <Text size="xs" c="green" role="status">
              {report.data.message}
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
}

/** Upload state of one row: the button's busy flag, the last report and the last error. */
export function useRowUpload(onValid: (result: UploadValidateResponse) => void) {
  const [result, setResult] = useState<UploadValidateResponse | null>(null);
  const mutation = useMutation({
    mutationFn: ({ file, kind }: { file: File; kind: UploadKind }) => validateFile(kind, file),
    onSuccess: (answer) => {
      setResult(answer);
      onValid(answer);
    },
    onMutate: () => setResult(null),
  });
  return {
    upload: (file: File, kind: UploadKind) => mutation.mutate({ file, kind }),
    busy: mutation.isPending,
    error: mutation.isError ? errorMessage(mutation.error) : null,
    clearError: () => mutation.reset(),
    result,
    dismiss: () => setResult(null),
  };
}

/** The error of a failed upload, shown in the row; the row keeps everything it had. */
export function UploadError({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      title="The file was not used"
      withCloseButton
      onClose={onDismiss}
      role="alert"
      data-testid="upload-error"
      closeButtonLabel="Dismiss"
    >
      {message}
    </Alert>
  );
}
