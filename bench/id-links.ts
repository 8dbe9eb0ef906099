/**
 * `npm run bench -- id-links [-- --activities 2152287] [--share 0.33] [--rounds 15]`
 *
 * The id links of a search's sets (search/bitmaps/id-links.ts) on synthetic columns of a size given
 * (demo M by default: 2.15 M activities over 200,000 structures, a third of them in the set), each
 * timed against a reference in the same process: the loop of issue 62's session 19, written inside
 * its chunk's closure (a count of the enclosing function incremented per id). Medians of `--rounds`
 * after three warm-ups; the ratio is what compares across machines.
 */
import { RoaringBitmap32 } from '../apps/server/src/modules/search/bitmaps/roaring.ts';
import { linked } from '../apps/server/src/modules/search/bitmaps/id-links.ts';
import { MainThreadTurns, inChunks } from '../apps/server/src/workers/main-thread-turns.ts';
import { summary, writeResult } from './support/bench-kit.ts';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const ACTIVITIES = arg('activities', 2_152_287);
const SHARE = arg('share', 0.33);
const ROUNDS = arg('rounds', 15);
const STRUCTURES = Math.round(ACTIVITIES / 10.76);

/** The reference: session 19's large-set path of `linked`, as it was. */
async function linkedBefore(link: Int32Array, ids: RoaringBitmap32, max: number): Promise<RoaringBitmap32> {
  const turns = new MainThreadTurns();
  const positions = ids.toUint32Array();
  const seen = new Uint8Array(max + 1);
  let distinct = 0;
  await inChunks(positions.length, turns, (start, end) => {
    for (let i = start; i < end; i++) {
      const value = link[positions[i]!]!;
      if (value > 0 && seen[value] === 0) {
        seen[value] = 1;
        distinct++;
      }
    }
  });
  const out = new Uint32Array(distinct);
  let k = 0;
  await inChunks(max + 1, turns, (start, end) => {
    for (let value = Math.max(1, start); value < end; value++) if (seen[value] === 1) out[k++] = value;
  });
  return new RoaringBitmap32(out);
}

// Activities in structure order (as the seed writes them), one in ten without a structure.
let seed = 7;
const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const actStr = Int32Array.from({ length: ACTIVITIES }, (_, i) =>
  next() < 0.1 ? 0 : 1 + Math.min(STRUCTURES - 1, Math.floor((i / ACTIVITIES) * STRUCTURES + next() * 50)),
);
const max = actStr.reduce((a, b) => Math.max(a, b), 0);
const ids = new RoaringBitmap32(Array.from({ length: ACTIVITIES }, (_, i) => i).filter(() => next() < SHARE));

async function timed(fn: () => Promise<RoaringBitmap32>): Promise<{ ms: number[]; size: number }> {
  const ms: number[] = [];
  let size = 0;
  for (let round = 0; round < ROUNDS + 3; round++) {
    const started = performance.now();
    size = (await fn()).size;
    if (round >= 3) ms.push(performance.now() - started);
  }
  return { ms, size };
}

// Alternated, so that neither runs only on a warmer machine.
const before = await timed(() => linkedBefore(actStr, ids, max));
const after = await timed(() => linked(actStr, ids));
const before2 = await timed(() => linkedBefore(actStr, ids, max));
if (after.size !== before.size) throw new Error(`linked differs from the reference: ${after.size} against ${before.size} structures`);
const reference = summary([...before.ms, ...before2.ms]);
const now = summary(after.ms);
const result = {
  activities: ACTIVITIES,
  structures: STRUCTURES,
  inSet: ids.size,
  linkedStructures: after.size,
  rounds: ROUNDS,
  referenceMs: reference,
  linkedMs: now,
  ratio: Number((now.p50 / reference.p50).toFixed(2)),
};
const file = writeResult('id-links', result);
console.log(
  `id-links: ${ids.size.toLocaleString('en')} of ${ACTIVITIES.toLocaleString('en')} activities → ${after.size.toLocaleString('en')} structures; linked p50 ${now.p50.toFixed(1)} ms against the reference's ${reference.p50.toFixed(1)} ms (×${result.ratio}) → ${file}`,
);
