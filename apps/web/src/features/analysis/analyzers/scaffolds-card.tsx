import { Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import type { z } from 'zod';
import type { AnalyzerTab, ScaffoldsConfigSchema } from '@kb/contracts/analyzers';
import { formatCount } from '../../../app/format/count-format.ts';
import { countNoun } from '../../../app/format/plural.ts';
import { StructureImage } from '../../chemistry/structure-image.tsx';
import { useVisualization } from './analyzer-queries.ts';
import { ChartFrame } from './chart-frame.tsx';

type ScaffoldsConfig = z.infer<typeof ScaffoldsConfigSchema>;

/** Scaffold frequency as bars, each with its scaffold drawn (the drawing is what a chemist reads). */
export function ScaffoldsCard({ sessionId, tab, config }: { sessionId: string; tab: AnalyzerTab; config: ScaffoldsConfig }) {
  const query = useVisualization<'scaffolds'>(sessionId, tab, config);
  return (
    <ChartFrame
      title="Scaffold frequency"
      testId="analyzer-scaffolds"
      query={query}
      isEmpty={(data) => data.scaffolds.length === 0}
      empty="No structure of this tab has a ring system (a Murcko scaffold)."
      note={(data) =>
        data.sampled
          ? `Bemis–Murcko scaffolds of a fixed random sample of ${formatCount(data.structures)} structures of this tab.`
          : `Bemis–Murcko scaffolds of the ${countNoun(data.structures, 'structure')} of this tab.`
      }
    >
      {(data) => {
        const top = data.scaffolds[0]?.compounds ?? 1;
        return (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="sm">
            {data.scaffolds.map((scaffold, index) => (
              <Paper key={scaffold.smiles} withBorder p="xs" radius="sm" data-testid="scaffold">
                <Stack gap={4} align="stretch">
                  <StructureImage smiles={scaffold.smiles} width={160} height={110} alt={`Scaffold ${index + 1}: ${scaffold.smiles}`} />
                  <Group justify="space-between" gap={4}>
                    <Text size="xs" c="dimmed">
                      #{index + 1}
                    </Text>
                    <Text size="sm" fw={600}>
                      {countNoun(scaffold.compounds, 'structure')}
                    </Text>
                  </Group>
                  <Progress value={(100 * scaffold.compounds) / top} size="sm" aria-label={`${scaffold.compounds} structures`} />
                </Stack>
              </Paper>
            ))}
          </SimpleGrid>
        );
      }}
    </ChartFrame>
  );
}
