import { notifications, notificationsStore } from '@mantine/notifications';

/**
 * A toast shown this long before a navigation started belongs to the page the user is leaving; one
 * shown closer to it (the same click: "Opened …", "Some saved filter values are not in these
 * results", then the navigation) is about the page being opened and stays.
 */
const PAGE_TOAST_GRACE_MS = 1000;

/** Where and when a toast was shown. */
export interface ToastBirth {
  path: string;
  at: number;
}

/**
 * The toasts that end when a navigation reaches `path`: those shown on another page, more than the
 * grace before the navigation started (`startedAt`). A refusal on the results (the SAR view's cap)
 * does not follow the user to the dashboard; a toast shown by the click that navigated does.
 */
export function toastsLeftBehind(
  births: ReadonlyMap<string, ToastBirth>,
  shown: readonly string[],
  path: string,
  startedAt: number,
): string[] {
  return shown.filter((id) => {
    const birth = births.get(id);
    return birth !== undefined && birth.path !== path && birth.at < startedAt - PAGE_TOAST_GRACE_MS;
  });
}

/** The part of React Router's data router this needs. */
interface RouterLike {
  state: { location: { pathname: string }; navigation: { state: string } };
  subscribe: (listener: (state: RouterLike['state']) => void) => () => void;
}

/**
 * Toasts belong to the page they were shown on (Mantine's notifications live outside the router):
 * each toast's page and time are noted when it appears, and when the user reaches another page the
 * toasts of the page left behind end, also those still waiting in the queue.
 */
export function scopeNotificationsToPages(router: RouterLike, now: () => number = Date.now): () => void {
  const births = new Map<string, ToastBirth>();
  const ids = () => {
    const { notifications: visible, queue } = notificationsStore.getState();
    return [...visible, ...queue].map((toast) => toast.id).filter((id): id is string => id !== undefined);
  };
  const stopToasts = notificationsStore.subscribe(() => {
    const current = ids();
    for (const id of current) if (!births.has(id)) births.set(id, { path: router.state.location.pathname, at: now() });
    for (const id of births.keys()) if (!current.includes(id)) births.delete(id);
  });
  let path = router.state.location.pathname;
  let startedAt: number | null = null;
  const stopRouter = router.subscribe((state) => {
    if (state.navigation.state !== 'idle') {
      startedAt ??= now();
      return;
    }
    const reached = state.location.pathname;
    const started = startedAt ?? now();
    startedAt = null;
    if (reached === path) return;
    path = reached;
    for (const id of toastsLeftBehind(births, ids(), reached, started)) notifications.hide(id);
  });
  return () => {
    stopToasts();
    stopRouter();
  };
}
