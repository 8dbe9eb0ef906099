// The one place that knows how the browser tests get their browser. `npm test`, `npm run test:e2e`
// and `.ci/run` all call it: it finds Chromium (CHROMIUM_PATH, else Debian's /usr/bin/chromium) and,
// when it is missing, installs Debian's `chromium` and `fonts-liberation` with apt-get if this user is
// root or has passwordless sudo; otherwise it says exactly what to run and fails before any test runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** Debian packages: the browser, and fonts so screenshots are legible. */
const BROWSER_PACKAGE = 'chromium';
const FONTS_PACKAGE = 'fonts-liberation';

/**
 * What to do, from facts about the machine (pure, so it is unit-tested).
 * @param {{ chromiumPath?: string, browserExists: boolean, fontsInstalled: boolean, isDebian: boolean, privilege: 'root' | 'sudo' | 'none' }} facts
 * @returns {{ action: 'ready', browser: string, warning?: string } | { action: 'install', browser: string, packages: string[], viaSudo: boolean } | { action: 'fail', message: string }}
 */
export function planBrowser(facts) {
  const userPath = facts.chromiumPath?.trim();
  if (userPath) {
    // A browser the user named is theirs to provide: never install something else in its place.
    if (facts.browserExists) return { action: 'ready', browser: userPath };
    return {
      action: 'fail',
      message:
        `CHROMIUM_PATH is ${userPath}, which is not an executable file.\n` +
        `Point it at a Chromium or Chrome binary (e.g. CHROMIUM_PATH=/usr/bin/google-chrome npm test), or unset it to use ${DEFAULT_CHROMIUM}.`,
    };
  }
  const missing = [];
  if (!facts.browserExists) missing.push(BROWSER_PACKAGE);
  if (facts.isDebian && !facts.fontsInstalled) missing.push(FONTS_PACKAGE);
  if (missing.length === 0) return { action: 'ready', browser: DEFAULT_CHROMIUM };

  if (facts.isDebian && facts.privilege !== 'none') {
    return { action: 'install', browser: DEFAULT_CHROMIUM, packages: missing, viaSudo: facts.privilege === 'sudo' };
  }
  if (facts.browserExists) {
    // Only the fonts are missing and we may not install them: the tests still run, screenshots are plainer.
    return {
      action: 'ready',
      browser: DEFAULT_CHROMIUM,
      warning: `${FONTS_PACKAGE} is not installed (screenshots use fallback fonts); install it with: sudo apt-get install -y ${FONTS_PACKAGE}`,
    };
  }
  const why = facts.isDebian
    ? 'this user cannot install it (not root, and no passwordless sudo)'
    : 'this is not a Debian machine, so it is not installed automatically';
  const install = facts.isDebian
    ? `  sudo apt-get install -y ${missing.join(' ')}`
    : "  install Chromium or Chrome with your system's package manager";
  return {
    action: 'fail',
    message:
      `The browser tests need Chromium at ${DEFAULT_CHROMIUM}, which is missing, and ${why}.\n` +
      `Either install it:\n${install}\n` +
      'or point the tests at a Chromium or Chrome you already have:\n' +
      '  CHROMIUM_PATH=/path/to/chromium npm test',
  };
}

function isExecutableFile(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function succeeds(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

function machineFacts(env = process.env) {
  const chromiumPath = env.CHROMIUM_PATH?.trim() || undefined;
  const isDebian = fs.existsSync('/etc/debian_version') && succeeds('apt-get', ['--version']);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const privilege = isRoot ? 'root' : succeeds('sudo', ['-n', 'true']) ? 'sudo' : 'none';
  return {
    chromiumPath,
    browserExists: isExecutableFile(chromiumPath ?? DEFAULT_CHROMIUM),
    fontsInstalled: isDebian && succeeds('dpkg', ['-s', FONTS_PACKAGE]),
    isDebian,
    privilege,
  };
}

function install(packages, viaSudo) {
  const run = (args) => {
    const [command, ...rest] = viaSudo ? ['sudo', '-n', ...args] : args;
    const result = spawnSync(command, rest, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.error || result.status !== 0)
      throw new Error(`\`${args.join(' ')}\` failed (exit ${result.status ?? result.error?.message}).`);
  };
  console.log(`Installing ${packages.join(' and ')} with apt-get for the browser tests (once; about 100 MB)...`);
  run(['apt-get', '-qq', 'update']);
  run(['apt-get', '-qq', 'install', '-y', '--no-install-recommends', ...packages]);
}

/** Makes sure a browser is there (installing it when allowed) and returns its path; throws with the message to show otherwise. */
export function ensureBrowser(env = process.env) {
  const plan = planBrowser(machineFacts(env));
  if (plan.action === 'fail') throw new Error(plan.message);
  if (plan.action === 'install') {
    install(plan.packages, plan.viaSudo);
    if (!isExecutableFile(plan.browser)) throw new Error(`apt-get finished but ${plan.browser} is still missing.`);
  }
  if (plan.action === 'ready' && plan.warning) console.warn(plan.warning);
  return plan.browser;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  try {
    ensureBrowser();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
