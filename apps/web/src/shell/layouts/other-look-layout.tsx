import { AppShell, Container } from '@mantine/core';
import { Outlet, useLocation } from 'react-router';
import { AppHeader } from './app-header.tsx';
import classes from './layout.module.css';
import { SiteFooter } from './site-footer.tsx';
import { SubscriptionWarning } from './subscription-warning.tsx';

/** Spec §2 "other-page look": header, a centred content column and a footer. */
export function OtherLookLayout() {
  // The results workspace, the compound sheet (settings beside a wide grid) and a SAR view tab (a
  // table of drawn R-groups, several endpoints and their differences) need the whole window.
  const wide = /^\/(results|new-search-results|sheet|sarview\/[^/]+)(\/|$)/.test(useLocation().pathname);
  return (
    <AppShell header={{ height: 60 }} padding={0} data-look="other">
      <AppShell.Header>
        <AppHeader />
      </AppShell.Header>
      <AppShell.Main className={classes.otherMain}>
        <Container size={wide ? '100%' : 'lg'} py="lg" w="100%" style={{ flex: 1 }} component="main" fluid={wide}>
          <SubscriptionWarning />
          <Outlet />
        </Container>
        <SiteFooter />
      </AppShell.Main>
    </AppShell>
  );
}
