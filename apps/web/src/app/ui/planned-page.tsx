import { Badge, Card, Code, Group, List, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from './page-header.tsx';

/**
 * A page whose working parts arrive with later issues: its title, the route parameters it was
 * opened with, and what the user will do here. It never shows invented data.
 */
export function PlannedPage({
  title,
  description,
  params,
  tasks,
  children,
}: {
  title: string;
  description: string;
  params?: Record<string, string | undefined>;
  tasks: readonly string[];
  children?: ReactNode;
}) {
  const entries = Object.entries(params ?? {});
  return (
    <Stack gap="md">
      <PageHeader title={title} description={description} />
      {entries.length > 0 && (
        <Group gap="xs" data-testid="route-params">
          {entries.map(([name, value]) => (
            <Badge key={name} variant="light" size="lg" tt="none">
              {name}: <Code>{value ?? '—'}</Code>
            </Badge>
          ))}
        </Group>
      )}
      <Card withBorder radius="md" padding="lg">
        <Text fw={600} mb="xs">
          What you will do here
        </Text>
        <List spacing={4} size="sm">
          {tasks.map((task) => (
            <List.Item key={task}>{task}</List.Item>
          ))}
        </List>
      </Card>
      {children}
    </Stack>
  );
}
