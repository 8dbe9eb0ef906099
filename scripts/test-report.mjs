// Reads the per-file reports that file-times-reporter.mjs writes: the phase table and counts
// `npm test` prints, and, run as a script, the slowest test files of a run:
//
//   node scripts/test-report.mjs [--top 20] [test-results/vitest-*.json ...]
//
// With no files it reads every test-results/vitest-*.json.
import fs from 'node:fs';
import path from 'node:path';

/** `83.4 s` or `12 min 03 s`. */
export function formatSeconds(seconds) {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.round(seconds - minutes * 60)).padStart(2, '0')} s`;
}

/**
 * Wall-clock seconds of the phases: phases of one `group` ran side by side and count once, by the
 * longest of them.
 * @param {{ seconds: number, group?: string }[]} phases
 */
export function wallSeconds(phases) {
  const groups = new Map();
  let alone = 0;
  for (const p of phases) {
    if (p.group) groups.set(p.group, Math.max(groups.get(p.group) ?? 0, p.seconds));
    else alone += p.seconds;
  }
  return alone + [...groups.values()].reduce((sum, s) => sum + s, 0);
}

/**
 * The table of phases: name, duration, status, and the total (wall clock: phases run side by side,
 * marked ∥, count once).
 * @param {{ name: string, seconds: number, status: string, group?: string }[]} phases
 */
export function phaseTable(phases) {
  const total = wallSeconds(phases);
  const rows = [
    ...phases.map((p) => [p.group ? `${p.name} ∥` : p.name, formatSeconds(p.seconds), p.status]),
    ['total', formatSeconds(total), phases.some((p) => p.status === 'failed') ? 'failed' : 'passed'],
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length), ['phase', 'time', 'status'][i].length));
  const line = (cells) => `| ${cells.map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  return [
    line(['phase', 'time', 'status']),
    `|${widths.map((w, i) => (i === 1 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

function readReport(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Test counts summed over reports (file-times-reporter.mjs's). */
export function countsOf(files) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const file of files) {
    const report = readReport(file);
    counts.passed += report.passed ?? 0;
    counts.failed += report.failed ?? 0;
    counts.skipped += report.skipped ?? 0;
  }
  return counts;
}

/** Test counts summed over a report's files. */
export function totalsOf(files) {
  return files.reduce((sum, f) => ({ passed: sum.passed + f.passed, failed: sum.failed + f.failed, skipped: sum.skipped + f.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
}

/** Signals of a native crash of the runtime a test file ran in (not of a test's failure). */
const CRASH_SIGNALS = new Set(['SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE', 'SIGTRAP', 'SIGABRT']);

/**
 * The test files whose worker process died of a crash signal, from vitest's unhandled errors
 * ("Worker exited unexpectedly with signal SIGSEGV … while running test file /abs/file.test.ts",
 * in the error or its cause).
 * @param {ReadonlyArray<unknown>} errors
 * @returns {{ file: string, signal: string }[]}
 */
export function workerCrashesOf(errors) {
  const crashes = [];
  for (const error of errors) {
    const texts = [];
    for (let e = error, depth = 0; e && depth < 5; e = /** @type {any} */ (e).cause, depth++)
      texts.push(String(/** @type {any} */ (e).message ?? e));
    const found = texts.map((t) => /exited unexpectedly with signal (SIG[A-Z]+)\b.*?while running test file (\S+)/.exec(t)).find(Boolean);
    if (found && CRASH_SIGNALS.has(found[1])) crashes.push({ file: found[2], signal: found[1] });
  }
  return crashes;
}

/**
 * Whether a failed run failed only because worker processes crashed: no test and no other
 * unhandled error failed, and at least one file's worker died of a crash signal.
 */
export function failedOnlyByCrashes(report) {
  const crashes = report.workerCrashes ?? [];
  if (crashes.length === 0 || (report.unhandledErrors ?? 0) > crashes.length) return false;
  const crashed = new Set(crashes.map((c) => c.file));
  return (report.files ?? []).every((f) => f.failed === 0 || crashed.has(f.file));
}

/**
 * The report of a run whose crashed files were run again: their entries and counts replaced by the
 * re-run's, and the crashes kept under `rerunAfterCrash` so that the table and logs still show them.
 */
export function mergeRerun(report, rerun) {
  const again = new Set((rerun.files ?? []).map((f) => f.file));
  const files = [...(report.files ?? []).filter((f) => !again.has(f.file)), ...(rerun.files ?? [])];
  const totals = totalsOf(files);
  return {
    ...report,
    seconds: (report.seconds ?? 0) + (rerun.seconds ?? 0),
    ...totals,
    files,
    workerCrashes: rerun.workerCrashes ?? [],
    unhandledErrors: rerun.unhandledErrors ?? 0,
    rerunAfterCrash: report.workerCrashes ?? [],
  };
}

/** Each test file of a report with its whole time and counts; the run is named after the report file. */
export function filesOf(file) {
  const run = path.basename(file, '.json').replace(/^vitest-/, '');
  return (readReport(file).files ?? []).map((f) => ({ run: f.project ? `${run} (${f.project})` : run, ...f }));
}

function main(argv) {
  const topAt = argv.indexOf('--top');
  const top = topAt >= 0 ? Number(argv[topAt + 1]) : 20;
  const named = argv.filter((arg, i) => !arg.startsWith('--') && (topAt < 0 || i !== topAt + 1));
  const dir = path.resolve(import.meta.dirname, '..', 'test-results');
  const files =
    named.length > 0
      ? named
      : fs.existsSync(dir)
        ? fs
            .readdirSync(dir)
            .filter((f) => /^vitest-.*\.json$/.test(f))
            .map((f) => path.join(dir, f))
        : [];
  if (files.length === 0) {
    console.error('No reports: run `npm test` first (it writes test-results/vitest-*.json), or name report files.');
    process.exit(1);
  }
  const rows = files.flatMap((f) => filesOf(f)).sort((a, b) => b.seconds - a.seconds);
  for (const f of files) {
    const c = countsOf([f]);
    const filesIn = filesOf(f).length;
    console.log(
      `${path.basename(f)}: ${filesIn} files, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped; files' time summed ${formatSeconds(filesOf(f).reduce((s, r) => s + r.seconds, 0))}`,
    );
  }
  console.log(`\n| # | run | file | tests | time |\n|---:|---|---|---:|---:|`);
  rows
    .slice(0, top)
    .forEach((r, i) =>
      console.log(`| ${i + 1} | ${r.run} | ${r.file} | ${r.passed + r.failed + r.skipped} | ${formatSeconds(r.seconds)} |`),
    );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main(process.argv.slice(2));
