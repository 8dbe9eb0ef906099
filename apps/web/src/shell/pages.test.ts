import { describe, expect, it } from 'vitest';
import { WEB_ROUTES } from '@kb/contracts/routes';
import { PAGE_BY_PATH } from './pages.tsx';
import { routes } from './router.tsx';

describe('page registry', () => {
  it('has a page for every route of WEB_ROUTES and nothing else', () => {
    expect(Object.keys(PAGE_BY_PATH).sort()).toEqual(WEB_ROUTES.map((route) => route.path).sort());
  });

  it('puts each route in the layout of its look, with the not-found route last', () => {
    const [searchLook, otherLook] = routes[0]?.children ?? [];
    const paths = (children: typeof routes | undefined) => (children ?? []).map((child) => child.path);
    expect(paths(searchLook?.children)).toEqual(WEB_ROUTES.filter((route) => route.look === 'search').map((route) => route.path));
    expect(paths(otherLook?.children)).toEqual([...WEB_ROUTES.filter((route) => route.look === 'other').map((route) => route.path), '*']);
  });
});
