import { ROLES } from '@kb/contracts/roles';
import { describeRouteMatrix } from './support/role-route-matrix.ts';

// The second half of the roles; role-route-matrix.spec.ts walks the logged-out visitor and the first.
describeRouteMatrix(ROLES.slice(Math.ceil(ROLES.length / 2)), { loggedOut: false });
