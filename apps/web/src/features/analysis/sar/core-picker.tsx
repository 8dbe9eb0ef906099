import { Alert, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconPencil, IconPlus, IconRefresh, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { SarCoreInput, SarCoresResponse, SuggestedCore } from '@kb/contracts/sar';
import { SAR_MAX_CORES } from '@kb/contracts/sar';
import { errorMessage } from '../../../app/api-client.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { StructureEditorModal } from '../../chemistry/editor/structure-editor-modal.tsx';
import type { StructureDrawing, StructureText } from '../../chemistry/editor/structure-drawing.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';

function sameCore(a: SarCoreInput, b: SarCoreInput): boolean {
  return a.kind === b.kind && a.text === b.text;
}

function CoreDrawing({ core, width, height }: { core: SarCoreInput; width: number; height: number }) {
  if (core.kind === 'molfile') {
    return (
      <Text size="xs" c="dimmed" w={width} h={height} ta="center" pt={height / 3}>
        Drawn core (molfile)
      </Text>
    );
  }
  const source = core.kind === 'smarts' ? { smarts: core.text } : { smiles: core.text };
  return <StructureImage {...source} width={width} height={height} alt={`Core ${core.text}`} />;
}

/**
 * A drawing becomes a core: its SMILES when Ketcher can write one (open valences and `*` mark the
 * R positions), a SMARTS when the core was a SMARTS, else the molfile (R-group labels survive there).
 */
function coreOfDrawing(drawing: StructureDrawing, wasSmarts: boolean): SarCoreInput {
  if (wasSmarts && drawing.smarts) return { kind: 'smarts', text: drawing.smarts };
  if (drawing.smiles) return { kind: 'smiles', text: drawing.smiles };
  return { kind: 'molfile', text: drawing.molfile };
}

function SuggestedCoreCard({
  core,
  picked,
  disabled,
  onToggle,
}: {
  core: SuggestedCore;
  picked: boolean;
  disabled: boolean;
  onToggle: () => void;
}) {
  return (
    <UnstyledButton
      onClick={onToggle}
      disabled={disabled && !picked}
      aria-pressed={picked}
      aria-label={`${picked ? 'Remove' : 'Use'} the ${core.source === 'mcs' ? 'maximum common substructure' : 'scaffold'} ${core.text}, which covers ${countNoun(core.compounds, 'compound')}`}
      data-testid="sar-suggested-core"
      style={{ opacity: disabled && !picked ? 0.5 : 1 }}
    >
      <Card
        withBorder
        padding={6}
        radius="md"
        style={{ borderColor: picked ? 'var(--mantine-color-blue-6)' : undefined, borderWidth: picked ? 2 : 1 }}
      >
        <Group justify="space-between" gap={4} mb={2}>
          <Badge size="xs" variant="light" color={core.source === 'mcs' ? 'grape' : 'blue'}>
            {core.source === 'mcs' ? 'MCS' : 'Scaffold'}
          </Badge>
          {picked && <IconCheck size={14} color="var(--mantine-color-blue-6)" />}
        </Group>
        <CoreDrawing core={{ kind: core.kind, text: core.text }} width={140} height={90} />
        <Text size="xs" ta="center" mt={2}>
          covers {countNoun(core.compounds, 'compound')}
        </Text>
      </Card>
    </UnstyledButton>
  );
}

export interface CorePickerProps {
  suggestions: { data: SarCoresResponse | undefined; pending: boolean; error: Error | null; retry: () => void };
  cores: SarCoreInput[];
  onChange: (cores: SarCoreInput[]) => void;
  /** The server's answer to an invalid core (400), shown beside the cores. */
  coreError: string | null;
}

/** Suggested cores to pick (up to SAR_MAX_CORES), and cores drawn or edited in Ketcher. */
export function CorePicker({ suggestions, cores, onChange, coreError }: CorePickerProps) {
  // The core being edited (its index; cores.length: a new one), or null when the editor is closed.
  const [editing, setEditing] = useState<number | null>(null);
  const full = cores.length >= SAR_MAX_CORES;
  const toggle = (core: SarCoreInput) =>
    onChange(cores.some((c) => sameCore(c, core)) ? cores.filter((c) => !sameCore(c, core)) : [...cores, core]);
  const editingCore = editing !== null ? cores[editing] : undefined;
  const initial: StructureText | null = editingCore ? { format: editingCore.kind, value: editingCore.text } : null;

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end">
        <div>
          <Text fw={600} size="sm">
            Core
          </Text>
          <Text size="xs" c="dimmed">
            Pick a suggested core or draw one (up to {SAR_MAX_CORES}); R-groups are what each compound has beyond it.
          </Text>
        </div>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={14} />}
          onClick={() => setEditing(cores.length)}
          disabled={full}
          data-testid="sar-draw-core"
        >
          Draw a core
        </Button>
      </Group>
      {suggestions.pending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Finding the scaffolds and the common substructure of the set…
          </Text>
        </Group>
      ) : suggestions.error ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={16} />} role="alert" data-testid="sar-cores-error">
          <Text size="sm" mb="xs">
            No cores could be suggested: {errorMessage(suggestions.error)}. You can still draw one.
          </Text>
          <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={suggestions.retry}>
            Retry
          </Button>
        </Alert>
      ) : suggestions.data && suggestions.data.cores.length === 0 ? (
        <Text size="sm" c="dimmed">
          No core is shared by these compounds; draw one.
        </Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4, md: 6, lg: 7 }} spacing="xs" data-testid="sar-suggested-cores">
            {suggestions.data?.cores.map((core) => (
              <SuggestedCoreCard
                key={`${core.kind}:${core.text}`}
                core={core}
                picked={cores.some((c) => sameCore(c, core))}
                disabled={full}
                onToggle={() => toggle({ kind: core.kind, text: core.text })}
              />
            ))}
          </SimpleGrid>
          {suggestions.data?.mcsTimedOut && (
            <Text size="xs" c="dimmed">
              The common-substructure search stopped at its time limit: the MCS shown may be smaller than the true one.
            </Text>
          )}
        </>
      )}
      {cores.length > 0 && (
        <Group gap="xs" data-testid="sar-picked-cores">
          <Text size="sm">Chosen:</Text>
          {cores.map((core, index) => (
            <Card key={`${core.kind}:${core.text}`} withBorder padding={4} radius="md">
              <Group gap={4} wrap="nowrap">
                <CoreDrawing core={core} width={90} height={60} />
                <Stack gap={2}>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconPencil size={12} />}
                    onClick={() => setEditing(index)}
                    aria-label={`Edit core ${index + 1}`}
                  >
                    Edit
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="gray"
                    leftSection={<IconX size={12} />}
                    onClick={() => onChange(cores.filter((_, i) => i !== index))}
                    aria-label={`Remove core ${index + 1}`}
                  >
                    Remove
                  </Button>
                </Stack>
              </Group>
            </Card>
          ))}
        </Group>
      )}
      {coreError && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={16} />}
          title="This core cannot be used"
          role="alert"
          data-testid="sar-core-error"
        >
          {coreError}
        </Alert>
      )}
      <StructureEditorModal
        opened={editing !== null}
        initial={initial}
        onClose={() => setEditing(null)}
        onApply={(drawing) => {
          const core = coreOfDrawing(drawing, editingCore?.kind === 'smarts');
          const next = [...cores];
          next.splice(editing ?? cores.length, editingCore ? 1 : 0, core);
          onChange(next.slice(0, SAR_MAX_CORES));
          setEditing(null);
        }}
      />
    </Stack>
  );
}
