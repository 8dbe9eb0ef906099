import { AllCommunityModule, ModuleRegistry, themeQuartz } from 'ag-grid-community';

/**
 * AG Grid Community, registered once for the app. Every Community module is registered: the
 * results grid uses sorting, tooltips, cell renderers and keyboard navigation, and a missing
 * module fails only at run time.
 */
ModuleRegistry.registerModules([AllCommunityModule]);

/**
 * The Quartz theme in the app's type and colour. The font is the page's own: Quartz's default
 * would fetch a web font from Google, which an intranet deployment may not reach.
 */
export const resultsGridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  fontSize: 13,
  headerFontWeight: 600,
  spacing: 6,
  accentColor: 'var(--mantine-color-blue-6)',
  wrapperBorderRadius: 'var(--mantine-radius-md)',
});
