import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Paths are relative to this folder (the Vite root), so `vite build web` and
// scripts/build-web.js produce the same web/dist. Nothing here may reach the network.
export default defineConfig({
  base: '/app/',
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
});
