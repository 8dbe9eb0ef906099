import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  CopyButton,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconCheck, IconChevronDown, IconChevronUp, IconCopy, IconExternalLink, IconLink, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { isApiRequestError } from '../api-client.ts';
import { QueryErrorAlert } from './query-view.tsx';
import { PageHeader } from './page-header.tsx';
import type { SortDirection } from './use-sorted-rows.ts';
import { formatCount } from '../format/count-format.ts';

/** One titled block of a leaflet; `id` lets the page link to it. */
export function LeafletSection({
  id,
  title,
  meta,
  actions,
  children,
}: {
  id: string;
  title: string;
  meta?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="section"
      aria-labelledby={`${id}-title`}
      id={id}
      data-testid={`leaflet-section-${id}`}
    >
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Title order={2} size="h4" id={`${id}-title`}>
            {title}
          </Title>
          {meta && (
            <Text size="sm" c="dimmed">
              {meta}
            </Text>
          )}
        </Stack>
        {actions}
      </Group>
      {children}
    </Card>
  );
}

/** A value with a copy button beside it. */
export function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow position="left">
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label}`} size="sm">
            {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/**
 * Copies the leaflet's permanent link (no search session in it): anyone allowed to see leaflets
 * opens it, now and later.
 */
export function CopyLinkButton({ path }: { path: string }) {
  return (
    <CopyButton value={`${window.location.origin}${path}`} timeout={1500}>
      {({ copied, copy }) => (
        <Tooltip
          label={copied ? 'Copied' : 'A link that lasts: it opens this leaflet for any colleague who may see leaflets'}
          withArrow
          multiline
          w={260}
        >
          <Button
            size="compact-sm"
            variant="light"
            color={copied ? 'teal' : 'gray'}
            leftSection={copied ? <IconCheck size={14} /> : <IconLink size={14} />}
            onClick={copy}
            data-testid="copy-permanent-link"
            data-link={path}
          >
            {copied ? 'Link copied' : 'Copy link'}
          </Button>
        </Tooltip>
      )}
    </CopyButton>
  );
}

/** A link out of the app (DOI, PubMed), in a new tab. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
      <Group gap={4} wrap="nowrap" component="span" display="inline-flex">
        {children}
        <IconExternalLink size={12} aria-hidden />
      </Group>
    </Anchor>
  );
}

/** A column header that sorts its table; `aria-sort` tells assistive technology the state. */
export function SortableTh({
  label,
  active,
  direction,
  onSort,
  align = 'left',
}: {
  label: string;
  active: boolean;
  direction: SortDirection;
  onSort: () => void;
  align?: 'left' | 'right';
}) {
  const Icon = !active ? IconSelector : direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'} ta={align}>
      <UnstyledButton
        onClick={onSort}
        aria-label={`Sort by ${label}`}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 600 }}
      >
        {label}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

/** "Showing 200 of 1,234": said only when a list was cut. */
export function CappedNote({ shown, total, what }: { shown: number; total: number; what: string }) {
  if (shown >= total) return null;
  return (
    <Text size="xs" c="dimmed" mt="xs" data-testid="capped-note">
      Showing the first {formatCount(shown)} of {formatCount(total)} {what}.
    </Text>
  );
}

const ERROR_TITLES: Record<number, string> = {
  400: 'This link is not valid',
  403: 'Not available to you',
  404: 'Not in the knowledge base',
};

/** A leaflet that could not load: the server's message under a title that says what kind of failure it is. */
export function LeafletError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const title = (isApiRequestError(error) && ERROR_TITLES[error.status]) || 'Could not load the leaflet';
  return (
    <div data-testid="leaflet-error">
      <QueryErrorAlert error={error} onRetry={onRetry} title={title} />
    </div>
  );
}

/** A link the page can tell is wrong before asking the server. */
export function InvalidLinkAlert({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" title="This link is not valid" role="alert" data-testid="leaflet-error">
      {message}
    </Alert>
  );
}

/** The outline of a leaflet while it loads: a drawing, a table and two sections. */
export function LeafletSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading the leaflet">
      <Card withBorder radius="md" padding="lg">
        <Group align="flex-start" gap="lg" wrap="nowrap">
          <Skeleton w={320} h={240} radius="md" />
          <Stack gap="xs" style={{ flex: 1 }}>
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} h={22} radius="sm" />
            ))}
          </Stack>
        </Group>
      </Card>
      {Array.from({ length: 2 }, (_, i) => (
        <Card key={i} withBorder radius="md" padding="lg">
          <Skeleton h={20} w={200} mb="md" />
          <Stack gap="xs">
            {Array.from({ length: 4 }, (_, j) => (
              <Skeleton key={j} h={18} radius="sm" />
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** A leaflet page that can only say what went wrong (a bad link, a failed load): its title, then the problem. */
export function LeafletProblemPage({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Stack gap="md">
      <PageHeader title={title} description={description} />
      {children}
    </Stack>
  );
}
