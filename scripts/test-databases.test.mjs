import { describe, expect, it } from 'vitest';
import { chosenDatabases } from './test-databases.mjs';

describe('the databases the tests run on', () => {
  it('takes PGlite, and the server too when its URL is set', () => {
    expect(chosenDatabases({})).toEqual(['pglite']);
    expect(chosenDatabases({ TEST_DATABASE_URL: 'postgres://x/test' })).toEqual(['pglite', 'postgres']);
    expect(chosenDatabases({ TEST_DATABASE_URL: '  ' })).toEqual(['pglite']);
  });

  it('keeps the ones TEST_DATABASES names, once each', () => {
    expect(chosenDatabases({ TEST_DATABASES: 'postgres', TEST_DATABASE_URL: 'postgres://x/test' })).toEqual(['postgres']);
    expect(chosenDatabases({ TEST_DATABASES: ' pglite , pglite ', TEST_DATABASE_URL: 'postgres://x/test' })).toEqual(['pglite']);
  });

  it('refuses an unknown name, and the server without its URL', () => {
    expect(() => chosenDatabases({ TEST_DATABASES: 'pglite,mysql' })).toThrow(/mysql: the choices are pglite and postgres/);
    expect(() => chosenDatabases({ TEST_DATABASES: 'postgres' })).toThrow(/TEST_DATABASE_URL is not set/);
  });
});
