import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/** The libraries of the app's shell and of every page: React, its router, Mantine, TanStack Query, icons, state. */
const UI_LIBRARIES =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@mantine|@floating-ui|@tanstack|@tabler|zustand|clsx|react-remove-scroll[^\\/]*|react-textarea-autosize|use-callback-ref|use-sidecar|react-number-format|dayjs)[\\/]/;

const brotli = promisify(zlib.brotliCompress);
/** Above this size brotli's best quality (11) costs seconds per file for a few per cent. */
const BROTLI_MAX_QUALITY_UP_TO = 1_000_000;

/**
 * Brotli at quality 11 for the files a page waits for first (the main chunk: 7 % smaller than at
 * 9), and at 9 for the few large ones (Ketcher, Indigo's WebAssembly, the grid): at quality 11
 * they made the build 80 s instead of 25 s; quality 9 is 30 times faster and 10 % larger.
 */
function brotliBySize(input: zlib.InputType): Promise<Buffer> {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  const quality = size > BROTLI_MAX_QUALITY_UP_TO ? 9 : zlib.constants.BROTLI_MAX_QUALITY;
  return brotli(input, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } });
}

// The API server serves the built app in production; in development Vite proxies /api to it.
export default defineConfig({
  base: '/',
  plugins: [
    react(),
    // Brotli and gzip siblings (`x.js.br`, `x.js.gz`) written at build time: the server sends the
    // one the browser accepts without compressing per request (apps/server/src/http/static-files.ts).
    // Only text-like files and WebAssembly shrink; files under 1 kB are not worth it, and a
    // compressed file that would not be smaller is not written (the plugin's default).
    compression({
      algorithms: [defineAlgorithm(brotliBySize, {}), 'gzip'],
      filename: (_file, { algorithm }) => (algorithm === 'gzip' ? '[path][base].gz' : '[path][base].br'),
      include: /\.(js|mjs|css|html|json|svg|wasm|txt)$/,
      threshold: 1024,
    }),
  ],
  // Ketcher's bundles (ketcher-core, and the Node polyfills it pulls in, such as `util`) read
  // Node's `global` and, at import, `process.env`. The build already empties `process.env`;
  // pre-bundling for development does not.
  define: { global: 'globalThis', 'process.env': '{}' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Each page is its own chunk (shell/pages.tsx); left alone, the code the pages share would be
        // cut into some forty files of a few hundred bytes (one per Mantine component), each its
        // own request. The libraries every page uses go into one chunk, cached across releases
        // that do not update them; the heavy ones (Ketcher, AG Grid, ECharts) stay with the pages
        // that load them. (Grouping the libraries by the set of pages using them, `entriesAware`,
        // saved the login page 11 kB of its 250 kB for 8 more requests and files named after
        // every page: not worth it.)
        //
        // AG Grid and ECharts are shared by the results workspace and the SAR view: left alone, the
        // build names their shared chunk after whichever small module it meets first
        // (`density-control-*`). Named here, the bundle budget test still knows it is heavy.
        codeSplitting: {
          groups: [
            { name: 'ui-libraries', test: UI_LIBRARIES },
            { name: 'ag-grid-echarts', test: /[\\/]node_modules[\\/](ag-grid-community|ag-grid-react|echarts|zrender)[\\/]/ },
          ],
        },
      },
    },
  },
  // Development only. Pre-bundling would move ketcher-standalone away from its Indigo worker and
  // .wasm file, which it finds next to itself through `new URL(..., import.meta.url)`; what it
  // imports is pre-bundled instead, so that it shares ketcher-core with ketcher-react.
  optimizeDeps: {
    exclude: ['ketcher-standalone'],
    include: ['ketcher-core', 'ketcher-react', 'ketcher-standalone > @babel/runtime/regenerator'],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true } },
  },
});
