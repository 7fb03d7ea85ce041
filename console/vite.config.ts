import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The web console: sources in console/, built into dist/console and served by the web process at /app.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Everything is served by the service itself: no inlined data URLs for fonts or images, no CDNs.
    assetsInlineLimit: 0,
    // One bundle for the whole console (about 550 kB before compression), loaded once per visit.
    chunkSizeWarningLimit: 1000,
  },
  logLevel: 'warn',
});
