// The thread of worker-thread.test.ts: echoes, answers late, crashes, exits or hangs on demand.
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { applyNice } from './thread-nice.mjs';

applyNice();

parentPort.on('message', (message) => {
  const { id, op } = message;
  if (op === 'echo') setTimeout(() => parentPort.postMessage({ id, value: message.value }), message.delayMs ?? 0);
  else if (op === 'fail') parentPort.postMessage({ id, error: `failed on ${message.value}` });
  else if (op === 'note') parentPort.postMessage({ note: message.value });
  else if (op === 'crash') throw new Error('the test worker crashed');
  else if (op === 'exit') process.exit(3);
  else if (op === 'hang') {
    const until = Date.now() + 600_000;
    while (Date.now() < until) {
      // stuck, as a call that does not return
    }
  } else if (op === 'info') {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    parentPort.postMessage({ id, value: { workerData, priority: os.getPriority(tid) } });
  }
});
parentPort.postMessage({ ready: true });
