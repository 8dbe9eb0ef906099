import { describe, expect, it } from 'vitest';
import { loadPendo } from './pendo.ts';

const details = {
  enabled: true as const,
  apiKey: 'pk',
  agentUrl: 'https://cdn.pendo.io/agent/static/pk/pendo.js',
  visitorId: 'hash-1',
  accountId: '7',
};

function fakes() {
  const appended: { async: boolean; src: string }[] = [];
  const doc = {
    createElement: () => ({ async: false, src: '' }),
    head: { appendChild: (node: { async: boolean; src: string }) => appended.push(node) },
  } as unknown as Document;
  const win = {} as Window;
  return { doc, win, appended };
}

describe('loading the Pendo agent', () => {
  it('adds the agent script from the configured URL once and queues the visitor and account', () => {
    const { doc, win, appended } = fakes();
    loadPendo(details, doc, win);
    expect(appended).toEqual([{ async: true, src: details.agentUrl }]);
    expect(win.pendo?._q).toEqual([['initialize', { visitor: { id: 'hash-1' }, account: { id: '7' } }]]);
    // A second login before the agent arrived: queued, no second script.
    loadPendo({ ...details, visitorId: 'hash-2', accountId: null }, doc, win);
    expect(appended).toHaveLength(1);
    expect(win.pendo?._q?.at(-1)).toEqual(['identify', { visitor: { id: 'hash-2' } }]);
  });

  it('names the new visitor to an agent that has loaded', () => {
    const { doc, win, appended } = fakes();
    const calls: unknown[] = [];
    win.pendo = { initialize: () => calls.push('initialize'), identify: (options) => calls.push(options) };
    loadPendo(details, doc, win);
    expect(appended).toHaveLength(0);
    expect(calls).toEqual([{ visitor: { id: 'hash-1' }, account: { id: '7' } }]);
  });
});
