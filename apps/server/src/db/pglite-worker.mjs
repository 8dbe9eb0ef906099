// The embedded database's own thread (see pglite-client.ts). PGlite is PostgreSQL compiled to
// WebAssembly: a statement runs synchronously on the thread that calls it, so on the main thread a
// search of a few seconds stopped every other request, health checks included. Here it only
// stops this thread. Plain JavaScript on purpose: a worker starts without tsx transforms.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const client = await PGlite.create({
  ...(workerData.dataDir ? { dataDir: workerData.dataDir } : {}),
  // An image (a tar PGlite wrote with dumpDataDir) starts a database already made: no initdb, which
  // is most of an in-memory database's start (test templates, test/test-databases.ts).
  ...(workerData.image ? { loadDataDir: new Blob([fs.readFileSync(workerData.image)]) } : {}),
  // bigint (int8) as a JS number: counts and ids fit (the same parser as the server connection's).
  parsers: { 20: (v) => Number.parseInt(v, 10) },
  // Compiled and read once per process (pglite-dialect.ts pgliteArtifacts), when they could be.
  ...(workerData.pgliteWasmModule ? { pgliteWasmModule: workerData.pgliteWasmModule, initdbWasmModule: workerData.initdbWasmModule } : {}),
  ...(workerData.fsBundle ? { fsBundle: new Blob([workerData.fsBundle]) } : {}),
});

/** What a caller may read of a PostgreSQL error (SQLSTATE code and the server's fields). */
function errorOf(error) {
  const out = { message: String(error?.message ?? error) };
  for (const key of ['code', 'detail', 'hint', 'severity', 'constraint', 'table', 'column', 'schema', 'position', 'where']) {
    if (error && error[key] !== undefined) out[key] = error[key];
  }
  return out;
}

parentPort.on('message', async (message) => {
  try {
    let result;
    if (message.op === 'query') {
      const answer = await client.query(message.sql, message.params);
      result = { rows: answer.rows, affectedRows: answer.affectedRows };
    } else if (message.op === 'exec') {
      await client.exec(message.sql);
      result = {};
    } else if (message.op === 'dump') {
      const image = await client.dumpDataDir('none');
      fs.writeFileSync(message.file, Buffer.from(await image.arrayBuffer()));
      result = {};
    } else if (message.op === 'close') {
      if (!client.closed) await client.close();
      result = {};
    } else throw new Error(`unknown operation ${message.op}`);
    parentPort.postMessage({ id: message.id, result });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: errorOf(error) });
  }
});

parentPort.postMessage({ ready: true });
