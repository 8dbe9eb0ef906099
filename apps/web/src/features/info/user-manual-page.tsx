import { Anchor, Box, Divider, List, Stack } from '@mantine/core';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { InfoSection } from './info-section.tsx';
import { USER_MANUAL_CHAPTERS } from './user-manual-chapters.ts';
import { ManualMarkdown } from './user-manual-markdown.tsx';

/**
 * The user manual (/usermanual). Its text is Markdown, one file per chapter in `user-manual/`
 * (user-manual-chapters.ts says how the files are named); this page lists the chapters and renders
 * each under its title.
 */
export function UserManualPage() {
  const { hash } = useLocation();
  // A link to a chapter from elsewhere (/usermanual#sar-view) arrives before this page's code has
  // loaded, so the browser found nothing to scroll to: scroll once the chapters are there. A frame
  // later, because the root layout's effect, which runs after this one, scrolls a new page to the top.
  useEffect(() => {
    if (hash.length <= 1) return;
    const frame = requestAnimationFrame(() => document.getElementById(hash.slice(1))?.scrollIntoView());
    return () => cancelAnimationFrame(frame);
  }, [hash]);

  return (
    <Stack gap="lg" maw={880}>
      <PageHeader
        title="User manual"
        description="How to log in, search the knowledge base, read and filter results, export data and manage your account."
      />
      <Box component="nav" aria-label="Chapters">
        <List size="sm" spacing={2}>
          {USER_MANUAL_CHAPTERS.map(({ id, title }) => (
            <List.Item key={id}>
              <Anchor href={`#${id}`}>{title}</Anchor>
            </List.Item>
          ))}
        </List>
      </Box>
      <Divider />

      {USER_MANUAL_CHAPTERS.map(({ id, title, body }) => (
        <InfoSection key={id} id={id} title={title}>
          <Stack gap="sm">
            <ManualMarkdown>{body}</ManualMarkdown>
          </Stack>
        </InfoSection>
      ))}
    </Stack>
  );
}
