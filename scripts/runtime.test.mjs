import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADDONS, headersDirOf } from './build-native.mjs';

const root = path.resolve(import.meta.dirname, '..');
const projectNode = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');
const bundled = fs.existsSync(path.join(root, 'node_modules', `node-${process.platform}-${process.arch}`));

/*
 * The product runs on a supported Node LTS that the project brings itself (package.json
 * optionalDependencies node-<platform>-<arch>; npm scripts put its binary first on PATH), whatever
 * Node the machine has. These tests run through `npm test`, so they run on that Node.
 */
describe('the project runtime', () => {
  it('runs the tests on Node 24 or newer', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it.runIf(bundled)('links the bundled Node as node_modules/.bin/node, headers included, and npm scripts use it', () => {
    const version = spawnSync(projectNode, ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(version).toBe(process.version);
    const headers = headersDirOf(projectNode);
    expect(headers).not.toBeNull();
    expect(fs.existsSync(path.join(headers ?? '', 'include', 'node', 'node_version.h'))).toBe(true);
  });

  it.each(ADDONS.map((addon) => [addon.name, addon]))('loads the native addon %s under this Node', (_name, addon) => {
    const result = spawnSync(process.execPath, ['-e', addon.probe], { cwd: root, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
