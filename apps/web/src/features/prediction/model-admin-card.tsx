import { Alert, Badge, Button, Card, FileInput, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileCode, IconFileUpload, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { predictionEndpoints } from '@kb/contracts/prediction';
import type { ModelStatus } from '@kb/contracts/prediction';
import { callApi, errorMessage } from '../../app/api-client.ts';
import { countNoun } from '../../app/format/plural.ts';
import { endpointKey } from '../../app/query.ts';
import { QueryView } from '../../app/ui/query-view.tsx';
import { bytesToBase64 } from '../search/uploads/upload-terms.ts';
import { checkModelFile, defaultModelName, parseModelTargets } from './model-files.ts';
import { useAdminModelStatus } from './use-prediction.ts';

const STATE_LABELS: Record<ModelStatus['state'], { label: string; color: string }> = {
  installed: { label: 'Installed', color: 'green' },
  'not-installed': { label: 'Not installed', color: 'gray' },
  failed: { label: 'Failed', color: 'red' },
};

function StatusLine({ status }: { status: ModelStatus }) {
  const state = STATE_LABELS[status.state];
  return (
    <Stack gap={6} data-testid="prediction-model-status" data-state={status.state}>
      <Group gap="xs">
        <Badge color={state.color} variant="light">
          {state.label}
        </Badge>
        {status.name && (
          <Text size="sm" fw={500}>
            {status.name}
          </Text>
        )}
        {status.state === 'installed' && (
          <Text size="sm" c="dimmed">
            {countNoun(status.targets, 'target')}
          </Text>
        )}
      </Group>
      {status.message && (
        <Alert
          variant="light"
          color={status.state === 'failed' ? 'red' : 'blue'}
          p="xs"
          role={status.state === 'failed' ? 'alert' : 'status'}
          data-testid="prediction-model-message"
        >
          <Text size="sm">{status.message}</Text>
        </Alert>
      )}
    </Stack>
  );
}

interface Chosen {
  model: File | null;
  targets: File | null;
  parsedTargets: string[] | null;
  problem: string | null;
}

const NOTHING: Chosen = { model: null, targets: null, parsedTargets: null, problem: null };

/**
 * Superadmin, beside the releases: the multitask model's status, an upload of its two files (the
 * ONNX model and its target list, read here and sent as base64 with the parsed list), and a reload
 * of the model folder for files an administrator placed there. The server checks that the model
 * runs before keeping it, and answers why when it does not.
 */
export function ModelAdminCard() {
  const client = useQueryClient();
  const status = useAdminModelStatus();
  const [chosen, setChosen] = useState<Chosen>(NOTHING);
  const [name, setName] = useState('');
  const setStatus = (next: ModelStatus) => client.setQueryData(endpointKey(predictionEndpoints.adminModelStatus, {}), next);

  const install = useMutation({
    mutationFn: async () => {
      if (!chosen.model || !chosen.parsedTargets) throw new Error('Choose the model file and its target list.');
      const modelBase64 = bytesToBase64(new Uint8Array(await chosen.model.arrayBuffer()));
      return callApi(predictionEndpoints.installModel, {
        body: { name: name.trim() || defaultModelName(chosen.model.name), modelBase64, targets: chosen.parsedTargets },
      });
    },
    onSuccess: (next) => {
      setStatus(next);
      setChosen(NOTHING);
      notifications.show({ color: 'green', message: `${next.name ?? 'The model'} is installed: ${countNoun(next.targets, 'target')}.` });
      // Predictions cached before the model came would lack it.
      void client.invalidateQueries({ queryKey: endpointKey(predictionEndpoints.predictTargets) });
    },
  });
  const reload = useMutation({
    mutationFn: () => callApi(predictionEndpoints.reloadModel, {}),
    onSuccess: (next) => {
      setStatus(next);
      void client.invalidateQueries({ queryKey: endpointKey(predictionEndpoints.predictTargets) });
    },
  });

  const chooseModel = (file: File | null) => {
    install.reset();
    const problem = file ? checkModelFile(file) : null;
    setChosen((current) => ({ ...current, model: problem ? null : file, problem }));
  };
  const chooseTargets = async (file: File | null) => {
    install.reset();
    if (!file) {
      setChosen((current) => ({ ...current, targets: null, parsedTargets: null, problem: null }));
      return;
    }
    const parsed = parseModelTargets(await file.text(), file.name, file.size);
    setChosen((current) => ({
      ...current,
      targets: parsed.ok ? file : null,
      parsedTargets: parsed.ok ? parsed.value : null,
      problem: parsed.ok ? null : parsed.message,
    }));
  };
  const busy = install.isPending || reload.isPending;
  const error = install.error ?? reload.error;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="prediction-model-admin">
      <Title order={4} mb={4}>
        Target-prediction model
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The ChEMBL multitask neural network adds a probability per target to the similarity ensemble, which predicts without it. Install the
        model file with its target list, or place both in the model folder and reload.
      </Text>
      <Stack gap="md">
        <QueryView query={status} skeletonRows={1}>
          {(data) => <StatusLine status={data} />}
        </QueryView>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
          <FileInput
            label="Model file (.onnx)"
            placeholder="chembl_37_multitask_q8.onnx"
            accept=".onnx"
            description="The ONNX file of the ChEMBL multitask repository"
            leftSection={<IconFileCode size={16} />}
            value={chosen.model}
            onChange={chooseModel}
            clearable
            data-testid="prediction-model-file"
          />
          <FileInput
            label="Target list (.json)"
            placeholder="targets_37_all.json"
            accept=".json,application/json"
            leftSection={<IconFileCode size={16} />}
            value={chosen.targets}
            onChange={(file) => void chooseTargets(file)}
            clearable
            description={
              chosen.parsedTargets
                ? `${countNoun(chosen.parsedTargets.length, 'target')}, in the order of the model's outputs`
                : "Its ChEMBL target ids, in the order of the model's outputs"
            }
            data-testid="prediction-model-targets"
          />
          <TextInput
            label="Name shown to users"
            description="Beside the model's probabilities"
            placeholder={chosen.model ? defaultModelName(chosen.model.name) : 'ChEMBL 37 multitask'}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={100}
          />
        </SimpleGrid>
        {chosen.problem && (
          <Alert color="red" variant="light" role="alert" p="xs" data-testid="prediction-model-file-problem">
            {chosen.problem}
          </Alert>
        )}
        <Group gap="sm">
          <Button
            leftSection={<IconFileUpload size={16} />}
            disabled={!chosen.model || !chosen.parsedTargets || reload.isPending}
            loading={install.isPending}
            onClick={() => install.mutate()}
            data-testid="prediction-model-install"
          >
            Install the model
          </Button>
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={reload.isPending}
            disabled={busy && !reload.isPending}
            onClick={() => reload.mutate()}
            data-testid="prediction-model-reload"
          >
            Reload from folder
          </Button>
        </Group>
        {error && (
          <Alert
            color="red"
            variant="light"
            role="alert"
            title={install.error ? 'The model was not installed' : 'The model folder could not be read'}
            data-testid="prediction-model-error"
          >
            {errorMessage(error)}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
