import { ROLES } from '@kb/contracts/roles';
import { describeRouteMatrix } from './support/role-route-matrix.ts';

// The logged-out visitor and the first half of the roles; role-route-matrix-2.spec.ts walks the
// rest (two files run side by side: the whole walk is the suite's longest).
describeRouteMatrix(ROLES.slice(0, Math.ceil(ROLES.length / 2)), { loggedOut: true });
