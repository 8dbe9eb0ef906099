import { Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A card beside the pointer over a chart (the scatter's point, the heatmap's cell): on the side of
 * the pointer with room in the chart's box, a little above it; it never takes the pointer, so the
 * chart's brush and clicks keep working under it.
 */
export function PointerCard({
  x,
  y,
  boxWidth,
  width,
  above,
  testId,
  strId,
  children,
}: {
  /** The pointer, in pixels of the chart's box. */
  x: number;
  y: number;
  boxWidth: number;
  width: number;
  /** How far above the pointer the card starts. */
  above: number;
  testId: string;
  strId: number | null;
  children: ReactNode;
}) {
  const left = x + 16 + width > boxWidth ? Math.max(0, x - 16 - width) : x + 16;
  return (
    <Paper
      withBorder
      shadow="md"
      p={8}
      w={width}
      style={{ position: 'absolute', left, top: Math.max(0, y - above), pointerEvents: 'none', zIndex: 2 }}
      data-testid={testId}
      data-str-id={strId ?? undefined}
    >
      <Stack gap={4}>{children}</Stack>
    </Paper>
  );
}
