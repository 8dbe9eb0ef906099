import { describe, expect, it } from 'vitest';
import { DEFAULT_CHROMIUM, planBrowser } from './ensure-browser.mjs';

const debian = { browserExists: true, fontsInstalled: true, isDebian: true, privilege: 'none' };

describe('planBrowser: how the browser tests get their browser', () => {
  it('uses Debian chromium when it is there', () => {
    expect(planBrowser(debian)).toEqual({ action: 'ready', browser: DEFAULT_CHROMIUM });
  });

  it('installs chromium and the fonts as root, through sudo otherwise', () => {
    const missing = { ...debian, browserExists: false, fontsInstalled: false };
    expect(planBrowser({ ...missing, privilege: 'root' })).toEqual({
      action: 'install',
      browser: DEFAULT_CHROMIUM,
      packages: ['chromium', 'fonts-liberation'],
      viaSudo: false,
    });
    expect(planBrowser({ ...missing, privilege: 'sudo' })).toMatchObject({
      action: 'install',
      packages: ['chromium', 'fonts-liberation'],
      viaSudo: true,
    });
  });

  it('without root or sudo it fails with what to run and the CHROMIUM_PATH way out', () => {
    const plan = planBrowser({ ...debian, browserExists: false });
    expect(plan.action).toBe('fail');
    expect(plan.message).toContain(`The browser tests need Chromium at ${DEFAULT_CHROMIUM}, which is missing`);
    expect(plan.message).toContain('sudo apt-get install -y chromium');
    expect(plan.message).toContain('CHROMIUM_PATH=/path/to/chromium npm test');
  });

  it('off Debian it does not suggest apt-get', () => {
    const plan = planBrowser({ ...debian, isDebian: false, browserExists: false, privilege: 'root' });
    expect(plan.action).toBe('fail');
    expect(plan.message).not.toContain('apt-get');
    expect(plan.message).toContain('CHROMIUM_PATH=');
  });

  it('a CHROMIUM_PATH the user gave is used as is, and never replaced by an install', () => {
    expect(planBrowser({ ...debian, chromiumPath: '/opt/chrome/chrome', privilege: 'root' })).toEqual({
      action: 'ready',
      browser: '/opt/chrome/chrome',
    });
    const wrong = planBrowser({ ...debian, chromiumPath: '/nope/chrome', browserExists: false, privilege: 'root' });
    expect(wrong.action).toBe('fail');
    expect(wrong.message).toContain('CHROMIUM_PATH is /nope/chrome');
  });

  it('missing fonts alone only warn when they cannot be installed', () => {
    const plan = planBrowser({ ...debian, fontsInstalled: false });
    expect(plan).toMatchObject({ action: 'ready', browser: DEFAULT_CHROMIUM });
    expect(plan.warning).toContain('fonts-liberation');
  });
});
