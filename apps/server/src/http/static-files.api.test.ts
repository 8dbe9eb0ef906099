import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { INDIGO_WORKER_POLICY } from './security-headers.ts';
import { IMMUTABLE_CACHE_CONTROL, cacheControlFor } from './static-files.ts';

/**
 * A small build of the web app laid out as Vite and the compression plugin write it: hashed files
 * under assets/ with `.br` and `.gz` siblings, index.html with its siblings, an unhashed favicon.
 */
const MAIN_SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];\n`;
const INDEX_HTML = '<!doctype html><title>KB</title><script type="module" src="/assets/index-CPCG80e_.js"></script>'.padEnd(2000, ' ');
// WebAssembly's magic number and version, then a body that compresses.
const WASM = Buffer.concat([Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]), Buffer.alloc(50_000, 7)]);
const WORKER = `self.onmessage = () => {};\n${'// indigo\n'.repeat(300)}`;

const FILES: Record<string, string | Buffer> = {
  'index.html': INDEX_HTML,
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'assets/index-CPCG80e_.js': MAIN_SCRIPT,
  'assets/indigo-ketcher-1.40.0-Bgux85rJ.wasm': WASM,
  'assets/indigoWorker-5d0a61ab-BRRvkZmG.js': WORKER,
};
/** Files too small to be worth compressing have no siblings. */
const UNCOMPRESSED: Record<string, string> = { 'assets/tiny-Dx3kPq9a.js': 'export {};\n' };

function writeFixtureDist(root: string): void {
  const write = (relative: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), content);
  };
  for (const [relative, content] of Object.entries(FILES)) {
    write(relative, content);
    write(`${relative}.br`, zlib.brotliCompressSync(content));
    write(`${relative}.gz`, zlib.gzipSync(content));
  }
  for (const [relative, content] of Object.entries(UNCOMPRESSED)) write(relative, content);
}

const decoded: Record<string, (body: Buffer) => Buffer> = {
  br: (body) => zlib.brotliDecompressSync(body),
  gzip: (body) => zlib.gunzipSync(body),
  identity: (body) => body,
};

describe('static files of the web app', () => {
  let t: TestApp;
  let webDist: string;
  // Serving files does not touch the database: the embedded one is enough.
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-web-static-'));
    writeFixtureDist(webDist);
    t = await startTestApp('pglite', { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...headers },
    });

  describe.each([
    ['br', 'gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip, deflate', 'gzip'],
    ['no Accept-Encoding', undefined, 'identity'],
    ['identity only', 'identity', 'identity'],
  ])('a hashed script asked for with %s', (_label, acceptEncoding, encoding) => {
    it(`comes as ${encoding}, as a script, cached for a year`, async () => {
      const response = await get('/assets/index-CPCG80e_.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'] ?? 'identity').toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decoded[encoding]?.(response.rawPayload).toString('utf8')).toBe(MAIN_SCRIPT);
      if (encoding !== 'identity') expect(response.rawPayload.length).toBeLessThan(Buffer.byteLength(MAIN_SCRIPT) / 3);
    });
  });

  it('sends Indigo WebAssembly compressed, as application/wasm, cached for a year', async () => {
    const response = await get('/assets/indigo-ketcher-1.40.0-Bgux85rJ.wasm', 'gzip, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    // WebAssembly.instantiateStreaming refuses any other type.
    expect(response.headers['content-type']).toBe('application/wasm');
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(zlib.brotliDecompressSync(response.rawPayload).equals(WASM)).toBe(true);
  });

  it("sends Indigo's worker compressed under the worker's own policy (eval allowed there only)", async () => {
    const worker = await get('/assets/indigoWorker-5d0a61ab-BRRvkZmG.js', 'br');
    expect(worker.headers['content-encoding']).toBe('br');
    expect(worker.headers['content-security-policy']).toBe(INDIGO_WORKER_POLICY);
    const script = await get('/assets/index-CPCG80e_.js', 'br');
    expect(script.headers['content-security-policy']).not.toContain("'unsafe-eval'");
    expect(script.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends a hashed file without siblings as it is when brotli is asked for', async () => {
    const response = await get('/assets/tiny-Dx3kPq9a.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('export {};\n');
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
  });

  it('has index.html and unhashed files revalidated on every use', async () => {
    const index = await get('/index.html', 'br');
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-encoding']).toBe('br');
    const favicon = await get('/favicon.svg', 'br');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe('no-cache');
    expect(favicon.headers['content-type']).toBe('image/svg+xml');
  });

  it.each(['/', '/search', '/results/3', '/login?redirect=%2Fsearch'])(
    'answers the page route %s with index.html, compressed, never cached unchecked',
    async (url) => {
      const response = await get(url, 'gzip');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(response.rawPayload).toString('utf8')).toBe(INDEX_HTML);
    },
  );

  it('answers a revalidation with 304 through the ETag of the encoding sent, and HEAD without a body', async () => {
    const first = await get('/assets/index-CPCG80e_.js', 'br');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await get('/assets/index-CPCG80e_.js', 'br', { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // The gzip file is another representation: another ETag, so the br one does not validate it.
    const gzip = await get('/assets/index-CPCG80e_.js', 'gzip', { 'if-none-match': String(etag) });
    expect(gzip.statusCode).toBe(200);

    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-CPCG80e_.js', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(first.rawPayload.length);
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers a missing asset with 404, not with the page', async () => {
    const response = await get('/assets/index-OLDHASH1.js', 'br');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('cacheControlFor', () => {
  it.each([
    ['assets/index-CPCG80e_.js', IMMUTABLE_CACHE_CONTROL],
    ['assets/index-CPCG80e_.js.br', IMMUTABLE_CACHE_CONTROL],
    ['assets/indigo-ketcher-1.40.0-Bgux85rJ.wasm.gz', IMMUTABLE_CACHE_CONTROL],
    ['assets/ketcher-canvas-C19wuG3i.css', IMMUTABLE_CACHE_CONTROL],
    ['index.html', 'no-cache'],
    ['index.html.br', 'no-cache'],
    ['favicon.svg', 'no-cache'],
    // Under assets/ but without a hash: it may change under its name.
    ['assets/logo.svg', 'no-cache'],
    ['other/app-CPCG80e_.js', 'no-cache'],
  ])('%s → %s', (file, expected) => {
    expect(cacheControlFor(file)).toBe(expected);
  });
});
