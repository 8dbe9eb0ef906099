import pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { currentDbLane } from './db-priority.ts';
import type { DbLane } from './db-priority.ts';

/**
 * Connections to a PostgreSQL server in four lanes, one pool each (issue 39, 20 users at L): a
 * login's or a page's statements never wait for a connection held by a search's sets, and the
 * sets written in the background after a search's counts never hold every connection a new
 * search needs for its counts. With one pool, 20 users' sets transactions (seconds each at L)
 * took all 12 connections and every short call queued behind them. Logins, session checks and
 * health have a lane of their own: on a cold database pages held the three interactive
 * connections for seconds and a login waited up to 72 s behind them. Two set writers, not four:
 * each is a PostgreSQL process inserting hundreds of thousands of rows, and with four of them
 * busy PostgreSQL took most of two cores and logins missed 500 ms at the p95 (723 ms at L; 369 ms
 * with two, while pages that wait for their sets took 15.5 s instead of 11.4 s at the p95;
 * docs/benchmarks.md, issue 39 sixth step).
 *
 * Since issue 62 a search's sets are held in memory and not written, so the `sets` lane carries
 * only the sets still written as rows: a search whose reader joins the set tables, a server
 * without held sets, or held sets written out as they are (search-service.ts `keepInMemory`).
 */
export const LANE_CONNECTIONS: Record<DbLane, number> = { session: 2, interactive: 3, bulk: 5, sets: 2 };

export class LanePool implements PostgresPool {
  private readonly pools: Record<DbLane, pg.Pool>;
  readonly Client = pg.Client;
  readonly options: object;

  constructor(config: pg.PoolConfig, sizes: Record<DbLane, number> = LANE_CONNECTIONS) {
    // Each lane names its connections (pg_stat_activity.application_name), so an operator sees
    // which kind of work holds the server's connections.
    const lane = (name: DbLane) => new pg.Pool({ ...config, max: sizes[name], application_name: `kb-${name}` });
    this.pools = { session: lane('session'), interactive: lane('interactive'), bulk: lane('bulk'), sets: lane('sets') };
    this.options = this.pools.interactive.options;
  }

  connect(): Promise<PostgresPoolClient> {
    return this.pools[currentDbLane()].connect();
  }

  async end(): Promise<void> {
    await Promise.all(Object.values(this.pools).map((pool) => pool.end()));
  }
}
