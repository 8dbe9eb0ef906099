/**
 * Entry of the browser-test server: the real server, unchanged. It has its own file so that its
 * command line differs from a developer's `tsx apps/server/src/main.ts`: stopping a dev server
 * by name (`pkill -f apps/server/src/main.ts`) must not take down the server of a test run.
 */
import '../../apps/server/src/main.ts';
