import { Menu, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { NavLink, matchPath, useLocation } from 'react-router';
import classes from './layout.module.css';

export interface NavItem {
  label: string;
  path: string;
}

/** Space between links (the Group gap of the row). */
const GAP_PX = 4;

/**
 * How many links fit in `available` pixels, in order, keeping room for the "More" button when
 * some do not: every link, or the longest prefix that leaves the button its width.
 */
export function fittingCount(widths: readonly number[], moreWidth: number, available: number): number {
  const total = widths.reduce((sum, w) => sum + w, 0) + GAP_PX * Math.max(0, widths.length - 1);
  if (total <= available) return widths.length;
  let used = moreWidth;
  let count = 0;
  for (const width of widths) {
    if (used + GAP_PX + width > available) break;
    used += GAP_PX + width;
    count++;
  }
  return count;
}

/**
 * The header's links in one row that never pushes the account and Log out off the window: the
 * links that fit are shown, the rest go into a "More" menu (a KB admin's six links at 1,280 px).
 * Every link is rendered once, hidden, to be measured; the row is measured again when it resizes.
 */
export function FittingNav({ items }: { items: readonly NavItem[] }) {
  const row = useRef<HTMLDivElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState(items.length);
  const { pathname } = useLocation();

  useLayoutEffect(() => {
    const container = row.current;
    const ruler = measure.current;
    if (!container || !ruler) return;
    const fit = () => {
      const widths = [...ruler.querySelectorAll<HTMLElement>('[data-measure="link"]')].map((el) => el.offsetWidth);
      const moreWidth = ruler.querySelector<HTMLElement>('[data-measure="more"]')?.offsetWidth ?? 0;
      setCount(fittingCount(widths, moreWidth + GAP_PX, container.clientWidth));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(container);
    return () => observer.disconnect();
  }, [items]);

  const shown = items.slice(0, count);
  const hidden = items.slice(count);
  // As NavLink marks its own: the link's path or below it (Home only on itself).
  const hiddenActive = hidden.some((item) => matchPath({ path: item.path, end: item.path === '/' }, pathname) !== null);

  return (
    <div ref={row} style={{ position: 'relative', flex: 1, minWidth: 0, display: 'flex', gap: GAP_PX, overflow: 'hidden' }}>
      {shown.map((item) => (
        <NavLink key={item.path} to={item.path} end={item.path === '/'} className={classes.navLink}>
          {item.label}
        </NavLink>
      ))}
      {hidden.length > 0 && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <UnstyledButton className={classes.navLink} aria-current={hiddenActive ? 'page' : undefined} data-testid="nav-more">
              More <IconChevronDown size={12} aria-hidden />
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            {hidden.map((item) => (
              <Menu.Item key={item.path} component={NavLink} to={item.path} end={item.path === '/'}>
                {item.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      {/* The ruler: every link as it would be drawn, out of sight and out of the accessibility tree. */}
      <div
        ref={measure}
        aria-hidden="true"
        style={{ position: 'absolute', visibility: 'hidden', pointerEvents: 'none', display: 'flex', gap: GAP_PX, left: 0, top: 0 }}
      >
        {items.map((item) => (
          <span key={item.path} className={classes.navLink} data-measure="link">
            {item.label}
          </span>
        ))}
        <span className={classes.navLink} data-measure="more">
          More <IconChevronDown size={12} aria-hidden />
        </span>
      </div>
    </div>
  );
}
