import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server serves the built app in production; in development Vite proxies /api to it.
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: true } },
  },
});
