import type { ComponentType } from 'react';
import { AdminDashboardPage } from '../features/admin/admin-dashboard-page.tsx';
import { ClientDashboardPage } from '../features/admin/client-dashboard-page.tsx';
import { SubscriptionsPage } from '../features/admin/subscriptions-page.tsx';
import { SuperAdminPage } from '../features/admin/super-admin-page.tsx';
import { TrackersPage } from '../features/admin/trackers-page.tsx';
import { AnalyzersPage } from '../features/analysis/analyzers-page.tsx';
import { SarViewPage } from '../features/analysis/sar-view-page.tsx';
import { ChangePasswordPage } from '../features/auth/change-password-page.tsx';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { RegisterPage } from '../features/auth/register-page.tsx';
import { VerifyAccountPage } from '../features/auth/verify-account-page.tsx';
import { DashboardPage } from '../features/dashboard/dashboard-page.tsx';
import { AccessDeniedPage } from '../features/errors/access-denied-page.tsx';
import { DownloadsPage } from '../features/export/downloads-page.tsx';
import { ExportPage } from '../features/export/export-page.tsx';
import { KeywordsPage } from '../features/info/keywords-page.tsx';
import { PoliciesPage } from '../features/info/policies-page.tsx';
import { UserManualPage } from '../features/info/user-manual-page.tsx';
import { LandingPage } from '../features/landing/landing-page.tsx';
import { CompoundLeafletPage } from '../features/leaflets/compound-leaflet-page.tsx';
import { ReferenceLeafletPage } from '../features/leaflets/reference-leaflet-page.tsx';
import { NewSearchResultsPage, ResultsPage } from '../features/results/results-page.tsx';
import { DynamicQueryPage } from '../features/search/dynamic-query-page.tsx';
import { HomePage } from '../features/search/home-page.tsx';
import { SearchPage } from '../features/search/search-page.tsx';

/** The page of every WEB_ROUTES path pattern (a unit test checks none is missing). */
export const PAGE_BY_PATH: Readonly<Record<string, ComponentType>> = {
  '/': LandingPage,
  '/search': SearchPage,
  '/login': LoginPage,
  '/register': RegisterPage,
  '/results': ResultsPage,
  '/results/:tabid': ResultsPage,
  '/new-search-results': NewSearchResultsPage,
  '/new-search-results/:tabid': NewSearchResultsPage,
  '/sarview': SarViewPage,
  '/sarview/:tabid': SarViewPage,
  '/analyzers': AnalyzersPage,
  '/analyzers/:tabid': AnalyzersPage,
  '/export': ExportPage,
  '/export/:tabid': ExportPage,
  '/downloads': DownloadsPage,
  '/downloads/:tabid': DownloadsPage,
  '/leaflet/:idType/:id': CompoundLeafletPage,
  '/leafletreference/:sid/:rid': ReferenceLeafletPage,
  '/home': HomePage,
  '/dynamicquery': DynamicQueryPage,
  '/admin/trackers': TrackersPage,
  '/admin/dashboard': AdminDashboardPage,
  '/admin/client-dashboard': ClientDashboardPage,
  '/admin/subscriptions': SubscriptionsPage,
  '/dashboard': DashboardPage,
  '/change-password': ChangePasswordPage,
  '/forgot-password': ForgotPasswordPage,
  '/pub/account/verify/:code': VerifyAccountPage,
  '/usermanual': UserManualPage,
  '/keywords': KeywordsPage,
  '/policies': PoliciesPage,
  '/superadmin': SuperAdminPage,
  '/accessdenied': AccessDeniedPage,
};

/** Routes whose page carries its own `data-page` (the not-found page says "not-found"). */
export const SELF_MARKED_PATHS: readonly string[] = ['/accessdenied'];
