// The load bench's probe (bench/load.ts), in its own worker thread: `/api/health` every 200 ms and
// a login every 1.2 s until `until`. On the bench's main thread its timings would also count the
// time that thread spends reading the crowd's answers (pages, charts, exports parsed there), not
// the server's; here only this thread's own small answers are in them. Plain JavaScript: a worker
// thread starts without tsx.
import { parentPort, workerData } from 'node:worker_threads';

const { baseUrl, until, loginPath, username, password } = workerData;
const timings = { health: [], login: [] };
const errors = { health: [], login: [] };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(kind, work) {
  const started = performance.now();
  try {
    await work();
    timings[kind].push(performance.now() - started);
  } catch (error) {
    errors[kind].push(error instanceof Error ? error.message : String(error));
    // As the crowd does: a failing server is not hammered in a loop.
    await sleep(1000);
  }
}

async function call(url, init) {
  const response = await fetch(baseUrl + url, { ...init, signal: AbortSignal.timeout(180_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return text;
}

const health = (async () => {
  while (Date.now() < until) {
    await timed('health', () => call('/api/health'));
    await sleep(200);
  }
})();
const logins = (async () => {
  while (Date.now() < until) {
    await timed('login', () =>
      call(loginPath, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) }),
    );
    await sleep(1200);
  }
})();
await Promise.all([health, logins]);
parentPort.postMessage({ timings, errors });
