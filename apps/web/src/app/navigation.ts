/**
 * Navigation for code outside React components (API client, idle timer). The router registers
 * its navigate function at start; before that, a full page load is the fallback.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => unknown;

let navigator: Navigate | null = null;

export function registerNavigator(navigate: Navigate): void {
  navigator = navigate;
}

export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (navigator) {
    void navigator(to, options);
    return;
  }
  if (typeof window !== 'undefined') window.location.assign(to);
}

/** The login URL that brings the user back to `wanted` afterwards. */
export function loginUrl(wanted?: string): string {
  if (!wanted || wanted === '/' || wanted.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(wanted)}`;
}
