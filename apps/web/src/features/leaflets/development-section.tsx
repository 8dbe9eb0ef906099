import { Badge, Divider, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { DevelopmentCompound } from '@kb/contracts/leaflets';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { formatIsoDate } from './leaflet-format.ts';
import { LeafletSection } from '../../app/ui/leaflet-ui.tsx';
import { countNoun } from '../../app/format/plural.ts';

/** Badge colour of a highest phase: launched green, withdrawn red, clinical blue, the rest grey. */
export function phaseColor(phase: string | null): string {
  if (!phase) return 'gray';
  if (/launched/i.test(phase)) return 'green';
  if (/withdrawn/i.test(phase)) return 'red';
  if (/phase/i.test(phase)) return 'blue';
  return 'gray';
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

function DrugCard({ drug }: { drug: DevelopmentCompound }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid="development-compound" data-clinical-compound-id={drug.clinical_compound_id}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <Stack gap={2}>
          <Text fw={700} size="lg">
            {drug.drug_name}
          </Text>
          {drug.mode_of_action && (
            <Text size="sm" c="dimmed">
              {drug.mode_of_action}
            </Text>
          )}
        </Stack>
        <Group gap={6}>
          <Badge color={phaseColor(drug.highest_phase)} variant="filled" data-testid="development-phase">
            {drug.highest_phase ?? 'Phase unknown'}
          </Badge>
          {drug.status && (
            <Badge color={drug.status === 'Active' ? 'teal' : 'gray'} variant="light">
              {drug.status}
            </Badge>
          )}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" mb="sm">
        <Fact label="Approval year">{drug.approval_year ?? '—'}</Fact>
        <Fact label="Dose">{drug.drug_dose ?? '—'}</Fact>
        <Fact label="Last significant update">{formatIsoDate(drug.last_significant_update)}</Fact>
        <Fact label="Companies">
          {drug.companies.length === 0 ? '—' : drug.companies.map((c) => (c.country ? `${c.name} (${c.country})` : c.name)).join(', ')}
        </Fact>
      </SimpleGrid>
      {drug.reason_with_drawn && (
        <Text size="sm" c="red.8" mb="sm">
          Withdrawn{drug.reason_with_drawn_category ? ` (${drug.reason_with_drawn_category})` : ''}: {drug.reason_with_drawn}
        </Text>
      )}
      <Divider my="xs" />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Fact label="Indications">
          {drug.indications.length === 0 ? (
            '—'
          ) : (
            <Stack gap={4} mt={4}>
              {drug.indications.map((indication) => (
                <Group key={indication.indication_id} gap={6} wrap="nowrap">
                  <Text size="sm">{indication.name}</Text>
                  {indication.phase && (
                    <Badge size="xs" variant="light" color={phaseColor(indication.phase)}>
                      {indication.phase}
                    </Badge>
                  )}
                </Group>
              ))}
            </Stack>
          )}
        </Fact>
        <Fact label="Targets">
          {drug.targets.length === 0 ? (
            '—'
          ) : (
            <Stack gap={4} mt={4}>
              {drug.targets.map((target) => (
                <Group key={target.target_id} gap={6} wrap="nowrap">
                  <Text size="sm">{target.name}</Text>
                  {target.gene_symbol && (
                    <Badge size="xs" variant="light" tt="none">
                      {target.gene_symbol}
                    </Badge>
                  )}
                  {target.action_type && (
                    <Badge size="xs" variant="outline" color="grape">
                      {target.action_type}
                    </Badge>
                  )}
                </Group>
              ))}
            </Stack>
          )}
        </Fact>
      </SimpleGrid>
      {drug.remarks && (
        <Text size="xs" c="dimmed" mt="sm">
          {drug.remarks}
        </Text>
      )}
    </Paper>
  );
}

/** Development status: each development compound of the structure with phase, status, indications, companies and targets. */
export function DevelopmentSection({ development }: { development: DevelopmentCompound[] }) {
  return (
    <LeafletSection
      id="development"
      title="Development status"
      meta={development.length > 0 ? countNoun(development.length, 'development compound') : undefined}
    >
      {development.length === 0 ? (
        <EmptyState>Not a development compound: no clinical or preclinical development is recorded.</EmptyState>
      ) : (
        <Stack gap="sm">
          {development.map((drug) => (
            <DrugCard key={drug.clinical_compound_id} drug={drug} />
          ))}
        </Stack>
      )}
    </LeafletSection>
  );
}
