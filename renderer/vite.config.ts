import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Budgets (checked by e2e/renderer-budget.test.ts): initial JS of the bench window ≤ 150 kB gzip, no chunk over 120 kB gzip.
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      input: { main: here('./index.html'), portal: here('./portal.html'), admin: here('./admin.html') },
      output: {
        // Shared chunks are named for what they hold (not after the first module that happened to import them).
        codeSplitting: {
          groups: [
            { name: 'vendor-react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'vendor-zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 20 },
            { name: 'contracts', test: /[\\/]shared[\\/]/, priority: 10 },
            // the window components and client every page entry (bench, portal, admin) uses
            { name: 'ui-common', test: /[\\/]renderer[\\/]src[\\/]|modulepreload-polyfill|\.css$/, minShareCount: 2, priority: 5 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4300' }, fs: { allow: [here('..')] } },
});
