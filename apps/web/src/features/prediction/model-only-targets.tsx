import { Anchor, Badge, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { PREDICTION_MODEL_ONLY_MAX_E } from '@kb/contracts/prediction';
import type { PredictTargetsResponse, RelatedTarget } from '@kb/contracts/prediction';
import { countNoun } from '../../app/format/plural.ts';
import { ExternalLink } from '../../app/ui/leaflet-ui.tsx';
import { NUMERIC, chemblTargetUrl, formatEValue, formatScore, thresholdText } from './prediction-format.ts';
import { ProbabilityBar } from './prediction-cells.tsx';
import { useSearchTargetActives } from './use-prediction.ts';

/** How a knowledge-base target relates to the model's: said in words a pharmacologist uses. */
const RELATION_TEXT: Record<RelatedTarget['relation'], string> = {
  'same protein': 'the same protein in another target record',
  component: 'a component of it, or a complex it is part of',
  orthologue: 'an orthologue: the same protein in another organism',
};

/**
 * A knowledge-base target related to a model-only one: its relation, name, organism and actives;
 * pressing it searches its measured actives (its family's threshold is known when it is also a
 * listed prediction) or else every measurement of it.
 */
function RelatedTargetLink({
  related,
  thresholdNm,
  searching,
  onSearch,
}: {
  related: RelatedTarget;
  thresholdNm: number | null;
  searching: boolean;
  onSearch: () => void;
}) {
  const orthologue = related.relation === 'orthologue';
  const what =
    thresholdNm === null
      ? `the measurements of ${related.name}`
      : `the measured actives of ${related.name} (${thresholdText(thresholdNm)})`;
  return (
    <Group
      gap={6}
      wrap="nowrap"
      align="flex-start"
      data-testid="prediction-related"
      data-target-id={related.targetId}
      data-relation={related.relation}
    >
      <Tooltip label={`In this knowledge base: ${RELATION_TEXT[related.relation]}`} withArrow multiline w={260}>
        <Badge
          size="xs"
          variant={orthologue ? 'filled' : 'light'}
          color={orthologue ? 'orange' : 'gray'}
          tt="none"
          style={{ flexShrink: 0 }}
          mt={2}
        >
          {related.relation}
        </Badge>
      </Tooltip>
      <Text size="xs" lh={1.4}>
        <Tooltip label={`A new search: ${what}`} withArrow multiline w={280}>
          <Anchor
            component="button"
            type="button"
            size="xs"
            fw={500}
            onClick={onSearch}
            disabled={searching}
            aria-label={`Search ${what}`}
            ta="left"
            data-testid="prediction-related-search"
          >
            {related.name}
          </Anchor>
        </Tooltip>{' '}
        <Text span size="xs" c="dimmed">
          {related.organism && (
            <Text span size="xs" fs="italic">
              {related.organism}
            </Text>
          )}
          {related.organism ? ' · ' : ''}
          {countNoun(related.actives, 'active')}
        </Text>
      </Text>
    </Group>
  );
}

/**
 * "Model only: no measurements in this knowledge base": the model's significant targets that the
 * knowledge base holds no active of. They have no evidence here, so they are not ranked beside the
 * measured targets; each links to ChEMBL and to the knowledge base's related targets.
 */
export function ModelOnlyTargets({ answer }: { answer: PredictTargetsResponse }) {
  const actives = useSearchTargetActives();
  // A related target that is also a listed prediction brings its family's threshold: its actives can be searched.
  const thresholds = new Map(answer.targets.map((target) => [target.targetId, target.thresholdNm]));
  return (
    <Stack gap="xs" data-testid="prediction-model-only" mt="sm">
      {actives.confirmDialog}
      <div>
        <Title order={3} size="h5">
          Model only: no measurements in this knowledge base
        </Title>
        <Text size="xs" c="dimmed">
          Targets the multitask model lifts beyond chance (E ≤ {formatEValue(PREDICTION_MODEL_ONLY_MAX_E)}: no more than one of its targets
          is expected to be lifted this high by chance) that this knowledge base holds no active of. With no evidence here they are not in
          the list above; the probability is the model’s own, calibrated from its lift. The knowledge base’s targets of the same protein, a
          component or an orthologue are linked.
        </Text>
      </div>
      <Table.ScrollContainer minWidth={700}>
        <Table verticalSpacing={6} data-testid="prediction-model-only-table" aria-label="The model’s targets with no measurements here">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>ChEMBL target</Table.Th>
              <Table.Th>Model’s probability</Table.Th>
              <Table.Th>Raw output</Table.Th>
              <Table.Th>Lift</Table.Th>
              <Table.Th>Related in this knowledge base</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {answer.modelOnly.map((target) => (
              <Table.Tr key={target.chemblId} data-testid="prediction-model-only-target" data-chembl-id={target.chemblId}>
                <Table.Td maw={280}>
                  <Stack gap={2}>
                    <ExternalLink href={chemblTargetUrl(target.chemblId)}>{target.chemblId}</ExternalLink>
                    <Text size="sm" lh={1.3} c={target.name ? undefined : 'dimmed'}>
                      {target.name ?? 'Name not held here: see ChEMBL'}
                    </Text>
                    {target.organism && (
                      <Text size="xs" c="dimmed" fs="italic">
                        {target.organism}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <ProbabilityBar probability={target.probability} color="grape" testId="prediction-model-only-probability" />
                </Table.Td>
                <Table.Td style={NUMERIC}>
                  <Tooltip label="The model's raw output for this target: it does not compare across targets" withArrow multiline w={260}>
                    <Text size="sm" w="fit-content">
                      {formatScore(target.rawProbability)}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td style={NUMERIC}>
                  <Text size="sm" fw={600}>
                    E {formatEValue(target.eValue)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    z {target.zScore.toFixed(1)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {target.related.length > 0 ? (
                    <Stack gap={4}>
                      {target.related.map((related) => {
                        const thresholdNm = thresholds.get(related.targetId) ?? null;
                        return (
                          <RelatedTargetLink
                            key={`${related.targetId}-${related.relation}`}
                            related={related}
                            thresholdNm={thresholdNm}
                            searching={actives.running === related.targetId}
                            onSearch={() =>
                              void actives.open({ targetId: related.targetId, name: related.name, geneSymbol: null, thresholdNm })
                            }
                          />
                        );
                      })}
                    </Stack>
                  ) : (
                    <Text size="xs" c="dimmed">
                      none
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
