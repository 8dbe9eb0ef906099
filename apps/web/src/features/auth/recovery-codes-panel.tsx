import { Alert, Button, Code, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSessionStore } from '../../app/stores/session-store.ts';
import { saveBlob } from '../../app/ui/save-blob.ts';
import { recoveryCodesText } from './second-factor.ts';

/**
 * Recovery codes, shown once: copy, download, then "I have saved them" to go on. Each code works
 * once in place of the app's code; only their hashes are kept on the server.
 */
export function RecoveryCodesPanel({ codes, onDone, doneLabel }: { codes: readonly string[]; onDone: () => void; doneLabel: string }) {
  const username = useSessionStore((state) => state.username);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const text = recoveryCodesText(codes, username);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  const download = () => saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'kb-search-recovery-codes.txt');

  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Alert color="yellow" title="Save your recovery codes now">
        If you lose your phone, each code lets you log in once instead of the 6-digit code. They are shown only this once: keep them
        somewhere safe, away from your phone.
      </Alert>
      <List listStyleType="none" spacing={4} aria-label="Recovery codes">
        {codes.map((code) => (
          <List.Item key={code}>
            <Code fz="md">{code}</Code>
          </List.Item>
        ))}
      </List>
      <Group>
        <Button variant="default" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="default" onClick={download}>
          Download
        </Button>
      </Group>
      {copied && (
        <Text size="sm" role="status" c={copied === 'yes' ? 'green' : 'red'}>
          {copied === 'yes' ? 'Copied to the clipboard.' : 'The browser did not allow copying: use Download, or write the codes down.'}
        </Text>
      )}
      <Button onClick={onDone}>{doneLabel}</Button>
    </Stack>
  );
}
