import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** Scrolled to by its anchor, a section's title stops below the app's fixed header instead of under it. */
const BELOW_THE_HEADER = { scrollMarginTop: 'calc(var(--app-shell-header-offset, 0px) + var(--mantine-spacing-md))' };

/** A titled section of an information page, with an anchor id for the table of contents. */
export function InfoSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" id={id} aria-labelledby={`${id}-title`} style={BELOW_THE_HEADER}>
      <Title order={3} id={`${id}-title`}>
        {title}
      </Title>
      <Text component="div" size="sm" lh={1.6}>
        {children}
      </Text>
    </Stack>
  );
}
