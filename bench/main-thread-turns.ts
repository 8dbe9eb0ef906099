/**
 * `npm run bench -- main-thread-turns [-- --computations 8] [--work 400] [--rounds 5]`
 *
 * What a call that waits for I/O four times (a login: limits ∥ account, hash ∥ roles, session ∥
 * tokens, the answer) pays while computations share the main thread (workers/main-thread-turns.ts),
 * in the same process, alternated: the server's `SliceGate` (one computation's slice per turn of
 * the event loop) against the reference, each computation queueing its own `setImmediate` (issue
 * 62 up to session 20: every paused computation ran a slice before the loop polled again).
 * `--computations` run `--work` ms each of a loop over a typed array in 10 ms slices; meanwhile
 * a call of four real I/O waits (`fs.stat` on libuv's pool, answered in the poll phase) is due
 * every 20 ms and timed from then. Figures: the calls' p50/p95 and the time until the last
 * computation ends (what the gate costs them). Every computation pauses from the start, the gate's
 * best case: the server's figures are the load bench's.
 */
import fs from 'node:fs/promises';
import { MainThreadTurns, SliceGate, type TurnGate, inChunks } from '../apps/server/src/workers/main-thread-turns.ts';
import { summary, writeResult } from './support/bench-kit.ts';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const COMPUTATIONS = arg('computations', 8);
const WORK_MS = arg('work', 400);
const ROUNDS = arg('rounds', 5);

/** The reference: each paused computation queues its own immediate. */
const eachOwnImmediate: TurnGate = { next: () => new Promise((resolve) => setImmediate(resolve)) };

const column = new Float64Array(1 << 16).map((_, i) => i);
/** About a millisecond of work over a typed array per chunk. */
function busy(until: number): void {
  let sum = 0;
  while (performance.now() < until) for (let i = 0; i < column.length; i += 64) sum += column[i]!;
  if (sum < 0) throw new Error('unreachable');
}

async function computation(gate: TurnGate): Promise<void> {
  const turns = new MainThreadTurns(10, gate);
  await inChunks(WORK_MS, turns, () => busy(performance.now() + 1), 1);
}

/** A call due at `due` (it arrived then): timed from then, so the wait for the loop to notice it counts too. */
async function chain(due: number): Promise<number> {
  for (let wait = 0; wait < 4; wait++) await fs.stat(import.meta.filename);
  return performance.now() - due;
}

async function round(gate: TurnGate): Promise<{ chains: number[]; makespan: number }> {
  const chains: Promise<number>[] = [];
  const started = performance.now();
  // One call due every 20 ms whatever the loop does: a late timer starts every call due since.
  let due = started;
  const timer = setInterval(() => {
    for (; due <= performance.now(); due += 20) chains.push(chain(due));
  }, 20);
  await Promise.all(Array.from({ length: COMPUTATIONS }, () => computation(gate)));
  const makespan = performance.now() - started;
  clearInterval(timer);
  return { chains: await Promise.all(chains), makespan };
}

const figures = {
  gate: { chains: [] as number[], makespan: [] as number[] },
  reference: { chains: [] as number[], makespan: [] as number[] },
};
// Warm-ups of both, then rounds alternated in both orders, so that neither runs only on a warmer machine.
await round(eachOwnImmediate);
await round(new SliceGate());
for (let r = 0; r < ROUNDS; r++) {
  const both = [
    ['reference', eachOwnImmediate],
    ['gate', new SliceGate()],
  ] as const;
  for (const [name, gate] of r % 2 ? [...both].reverse() : both) {
    const { chains, makespan } = await round(gate);
    figures[name].chains.push(...chains);
    figures[name].makespan.push(makespan);
  }
}
const gate = { chains: summary(figures.gate.chains), makespan: summary(figures.gate.makespan) };
const reference = { chains: summary(figures.reference.chains), makespan: summary(figures.reference.makespan) };
const result = {
  computations: COMPUTATIONS,
  workMs: WORK_MS,
  rounds: ROUNDS,
  gate,
  reference,
  chainP95Ratio: Number((gate.chains.p95 / reference.chains.p95).toFixed(2)),
  makespanRatio: Number((gate.makespan.p50 / reference.makespan.p50).toFixed(2)),
};
const file = writeResult('main-thread-turns', result);
console.log(
  `main-thread-turns: ${COMPUTATIONS} computations of ${WORK_MS} ms; four I/O waits (n ${gate.chains.n} / ${reference.chains.n}) p50/p95 ${gate.chains.p50}/${gate.chains.p95} ms with the gate against ${reference.chains.p50}/${reference.chains.p95} ms (×${result.chainP95Ratio} at the p95); last computation ends after ${gate.makespan.p50} against ${reference.makespan.p50} ms (×${result.makespanRatio}) → ${file}`,
);
