import type { Role } from '@kb/contracts/roles';
import type { WebRoute } from '@kb/contracts/routes';
import { pluralNoun } from '../../app/format/plural.ts';
import { ROLE_LABELS } from '../../app/role-labels.ts';

/** What the denied page and the dashboard notice say about a page a role may not open. */
export interface DeniedText {
  /** "SAR view (/sarview) is not part of your subscription." */
  headline: string;
  /** Which roles include the page, and whether one the user holds does (then switching helps). */
  detail: string;
}

function rolesOf(route: WebRoute): readonly Role[] {
  return typeof route.access === 'string' ? [] : route.access;
}

/**
 * The page's title and route pattern. Never the path the user came from: it arrives in the URL,
 * and a crafted link must not put its own words in this official-looking box.
 */
function nameOf(route: WebRoute | null): string {
  if (!route) return 'This page';
  return `${route.title} (${route.path})`;
}

/** The lines of the access-denied page for a page (null: opened directly, no page named). */
export function deniedText(route: WebRoute | null, current: Role | null, held: readonly Role[]): DeniedText {
  const headline = `${nameOf(route)} is not part of your subscription.`;
  const allowed = route ? rolesOf(route) : [];
  const switchTo = allowed.find((role) => role !== current && held.includes(role));
  if (switchTo)
    return { headline, detail: `Your ${ROLE_LABELS[switchTo]} subscription includes it: switch to that role in the header to open it.` };
  const yours = current ? `Your current role, ${ROLE_LABELS[current]}, does not include it.` : 'Your subscription does not include it.';
  if (allowed.length === 0) return { headline, detail: yours };
  return {
    headline,
    detail: `${yours} It comes with ${listOf(allowed.map((role) => ROLE_LABELS[role]))} subscriptions; ask your administrator to extend yours.`,
  };
}

/** "A", "A or B", "A, B or C". */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** The notice on /dashboard when the admin guard sent an administrator there instead (docs/access-control.md rule 6). */
export function adminRedirectNotice(route: WebRoute, current: Role | null): string {
  const role = current ? ROLE_LABELS[current] : 'your role';
  const allowed = rolesOf(route).map((r) => ROLE_LABELS[r]);
  const whose =
    allowed.length > 0 ? ` is only open to the ${listOf(allowed)} ${pluralNoun(allowed.length, 'role')}` : ' is not open to your role';
  return `${route.title} (${route.path})${whose}, so as ${role} you were brought to your dashboard instead.`;
}
