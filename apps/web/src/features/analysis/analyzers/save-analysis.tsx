import { Button, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import type { AnalyzerChartConfig, AnalyzerTab } from '@kb/contracts/analyzers';
import { analyzerEndpoints } from '@kb/contracts/analyzers';
import { callApi, errorMessage } from '../../../app/api-client.ts';
import { invalidateSavedAnalyses, useSavedAnalyses } from './analyzer-queries.ts';

/** Saves the board under a name; saving under a name already used replaces that analysis (said before). */
export function SaveAnalysis({
  sessionId,
  tab,
  charts,
  initialName,
}: {
  sessionId: string;
  tab: AnalyzerTab;
  charts: AnalyzerChartConfig[];
  initialName: string;
}) {
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState(initialName);
  const [saving, setSaving] = useState(false);
  const saved = useSavedAnalyses();
  const replaces = saved.data?.analyses.some((a) => a.name === name.trim()) ?? false;

  const save = async () => {
    setSaving(true);
    try {
      const answer = await callApi(analyzerEndpoints.storeRequest, { body: { name, sessionid: sessionId, config: { tab, charts } } });
      await invalidateSavedAnalyses();
      notifications.show({ color: 'green', message: `Analysis saved as “${answer.name}”. Open it again from Analyzers.` });
      setOpened(false);
    } catch (error) {
      notifications.show({ color: 'red', title: 'The analysis was not saved', message: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" trapFocus withArrow>
      <Popover.Target>
        <Button variant="default" leftSection={<IconDeviceFloppy size={16} />} onClick={() => setOpened((o) => !o)}>
          Save analysis
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Stack gap="xs" w={280}>
            <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={120} required data-autofocus />
            {replaces && (
              <Text size="xs" c="orange.8">
                You have an analysis of this name: saving replaces it.
              </Text>
            )}
            <Group justify="flex-end">
              <Button type="submit" size="xs" loading={saving} disabled={!name.trim()}>
                {replaces ? 'Replace' : 'Save'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
