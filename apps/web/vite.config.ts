import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server serves the built app in production; in development Vite proxies /api to it.
export default defineConfig({
  base: '/',
  plugins: [react()],
  // Ketcher's bundles (ketcher-core, and the Node polyfills it pulls in, such as `util`) read
  // Node's `global` and, at import, `process.env`. The build already empties `process.env`;
  // pre-bundling for development does not.
  define: { global: 'globalThis', 'process.env': '{}' },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
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
