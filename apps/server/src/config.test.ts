import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('the server configuration', () => {
  it('listens on loopback only unless HOST names another address', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
  });
});
