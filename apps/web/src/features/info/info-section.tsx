import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled section of an information page, with an anchor id for the table of contents. */
export function InfoSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" id={id} aria-labelledby={`${id}-title`}>
      <Title order={3} id={`${id}-title`}>
        {title}
      </Title>
      <Text component="div" size="sm" lh={1.6}>
        {children}
      </Text>
    </Stack>
  );
}
