import type { ComponentType } from 'react';
/**
 * Loads a page's code (React Router's route `lazy`, see router.tsx). Each page is its own chunk so
 * that a page downloads only what it uses: the login page never waits for the structure editor,
 * the results grid, the charts or the admin pages (issue 14; e2e/bundle-budget.spec.ts).
 */
export type PageLoader = () => Promise<ComponentType>;

export const PAGE_BY_PATH: Readonly<Record<string, PageLoader>> = {
  '/': () => import('../pages/landing-page.tsx').then((m) => m.LandingPage),
  '/search': () => import('../pages/search-page.tsx').then((m) => m.SearchPage),
  '/login': () => import('../features/auth/login-page.tsx').then((m) => m.LoginPage),
  '/register': () => import('../features/auth/register-page.tsx').then((m) => m.RegisterPage),
  '/results': () => import('../pages/results-page.tsx').then((m) => m.ResultsPage),
  '/results/:tabid': () => import('../pages/results-page.tsx').then((m) => m.ResultsPage),
  '/new-search-results': () => import('../pages/results-page.tsx').then((m) => m.NewSearchResultsPage),
  '/new-search-results/:tabid': () => import('../pages/results-page.tsx').then((m) => m.NewSearchResultsPage),
  '/workspace': () => import('../pages/workspace-pages.tsx').then((m) => m.WorkspacePage),
  '/workspace/collections/:id': () => import('../pages/workspace-pages.tsx').then((m) => m.WorkspaceCollectionPage),
  '/workspace/result-sets/:id': () => import('../pages/workspace-pages.tsx').then((m) => m.WorkspaceResultSetPage),
  '/sheet': () => import('../pages/workspace-pages.tsx').then((m) => m.CompoundSheetPage),
  '/sarview': () => import('../features/analysis/sar-view-page.tsx').then((m) => m.SarViewPage),
  '/sarview/:tabid': () => import('../features/analysis/sar-view-page.tsx').then((m) => m.SarViewPage),
  '/analyzers': () => import('../features/analysis/analyzers-page.tsx').then((m) => m.AnalyzersPage),
  '/analyzers/:tabid': () => import('../features/analysis/analyzers-page.tsx').then((m) => m.AnalyzersPage),
  '/export': () => import('../features/export/export-page.tsx').then((m) => m.ExportPage),
  '/export/:tabid': () => import('../features/export/export-page.tsx').then((m) => m.ExportPage),
  '/downloads': () => import('../features/export/downloads-page.tsx').then((m) => m.DownloadsPage),
  '/downloads/:tabid': () => import('../features/export/downloads-page.tsx').then((m) => m.DownloadsPage),
  '/leaflet/reference/:rid': () => import('../features/leaflets/reference-leaflet-page.tsx').then((m) => m.ReferenceLeafletPage),
  '/leaflet/:idType/:id': () => import('../features/leaflets/compound-leaflet-page.tsx').then((m) => m.CompoundLeafletPage),
  '/leafletreference/:sid/:rid': () => import('../features/leaflets/reference-leaflet-page.tsx').then((m) => m.ReferenceLeafletPage),
  '/home': () => import('../features/search/home-page.tsx').then((m) => m.HomePage),
  '/dynamicquery': () => import('../features/dynamic-query/dynamic-query-page.tsx').then((m) => m.DynamicQueryPage),
  '/admin/trackers': () => import('../features/admin/trackers-page.tsx').then((m) => m.TrackersPage),
  '/admin/dashboard': () => import('../features/admin/admin-dashboard-page.tsx').then((m) => m.AdminDashboardPage),
  '/admin/client-dashboard': () => import('../features/admin/client-dashboard-page.tsx').then((m) => m.ClientDashboardPage),
  '/admin/subscriptions': () => import('../features/admin/subscriptions-page.tsx').then((m) => m.SubscriptionsPage),
  '/dashboard': () => import('../features/dashboard/dashboard-page.tsx').then((m) => m.DashboardPage),
  '/change-password': () => import('../features/auth/change-password-page.tsx').then((m) => m.ChangePasswordPage),
  '/forgot-password': () => import('../features/auth/forgot-password-page.tsx').then((m) => m.ForgotPasswordPage),
  '/pub/account/verify/:code': () => import('../features/auth/verify-account-page.tsx').then((m) => m.VerifyAccountPage),
  '/setup': () => import('../features/auth/setup-page.tsx').then((m) => m.SetupPage),
  '/usermanual': () => import('../features/info/user-manual-page.tsx').then((m) => m.UserManualPage),
  '/keywords': () => import('../features/info/keywords-page.tsx').then((m) => m.KeywordsPage),
  '/policies': () => import('../features/info/policies-page.tsx').then((m) => m.PoliciesPage),
  '/account/mfa': () => import('../features/auth/mfa-page.tsx').then((m) => m.MfaPage),
  '/notifications': () => import('../features/alerts/notifications-page.tsx').then((m) => m.NotificationsPage),
  '/notifications/:id': () => import('../features/alerts/open-alert-page.tsx').then((m) => m.OpenAlertPage),
  '/superadmin': () => import('../features/admin/super-admin-page.tsx').then((m) => m.SuperAdminPage),
  '/accessdenied': () => import('../features/errors/access-denied-page.tsx').then((m) => m.AccessDeniedPage),
};

/** Routes whose page carries its own `data-page` (the not-found page says "not-found"). */
export const SELF_MARKED_PATHS: readonly string[] = ['/accessdenied'];
