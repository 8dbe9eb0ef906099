import { describe, expect, it } from 'vitest';
import type { ToastBirth } from './page-notifications.ts';
import { toastsLeftBehind } from './page-notifications.ts';

describe('which toasts end when the user leaves a page', () => {
  const births = new Map<string, ToastBirth>([
    ['sar-refusal', { path: '/results/structuretab', at: 10_000 }],
    ['opened', { path: '/results/structuretab', at: 19_600 }],
    ['on-arrival', { path: '/dashboard', at: 20_500 }],
  ]);

  it('ends a toast of the page left behind, keeps the one shown by the navigating click and the new page’s own', () => {
    expect(toastsLeftBehind(births, ['sar-refusal', 'opened', 'on-arrival'], '/dashboard', 20_000)).toEqual(['sar-refusal']);
  });

  it('keeps every toast when the navigation comes back to the page they were shown on', () => {
    expect(toastsLeftBehind(births, ['sar-refusal', 'opened'], '/results/structuretab', 20_000)).toEqual([]);
  });

  it('leaves alone toasts it never saw appear and toasts no longer shown', () => {
    expect(toastsLeftBehind(births, ['unknown'], '/dashboard', 20_000)).toEqual([]);
    expect(toastsLeftBehind(births, [], '/dashboard', 20_000)).toEqual([]);
  });
});
