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
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      input: { main: here('./index.html'), portal: here('./portal.html'), admin: here('./admin.html') },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:4300' }, fs: { allow: [here('..')] } },
});
