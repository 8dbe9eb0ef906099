import type { Role } from '@kb/contracts/roles';
import { ROLES, demoEmailForRole } from '@kb/contracts/roles';

/**
 * The demo accounts: who they are, not how they are stored (seed/demo-users.ts writes them). Auth
 * reads the list to know a demo account when it sees one (first-admin.ts: the demo super admin's
 * published password does not count as a set-up), and the start-up lines print it.
 */
export interface DemoUser {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  /** Days until the subscription ends; negative means it has ended. */
  endsInDays: number;
  credits: number;
  flatFile: boolean;
  note: string;
}

const titleCase = (word: string) => word.charAt(0) + word.slice(1).toLowerCase();

/** One login per role of spec §6, plus an expired and a low-credit account (issue: foundation). */
export const DEMO_USERS: readonly DemoUser[] = [
  ...ROLES.map((role) => {
    const [first = role, ...rest] = role.split('_');
    return {
      email: demoEmailForRole(role),
      firstName: titleCase(first),
      lastName: `${rest.map(titleCase).join(' ')} (demo)`.trim(),
      role,
      endsInDays: 365,
      credits: role === 'FULL_USER' || role === 'DOWNLOAD_EVALUATOR' ? 5000 : 500,
      flatFile: role === 'FULL_USER',
      note: role,
    } satisfies DemoUser;
  }),
  {
    email: 'expired@demo.test',
    firstName: 'Expired',
    lastName: 'Subscription (demo)',
    role: 'FULL_USER',
    endsInDays: -10,
    credits: 500,
    flatFile: false,
    note: 'subscription ended',
  },
  {
    email: 'lowcredit@demo.test',
    firstName: 'Low',
    lastName: 'Credit (demo)',
    role: 'FULL_USER',
    endsInDays: 3,
    credits: 50,
    flatFile: false,
    note: '50 credits, ends in 3 days',
  },
];
