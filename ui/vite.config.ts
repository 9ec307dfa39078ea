import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The app embeds ui/dist (tauri.conf.json `frontendDist`); no dev server is needed.
export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  // The window's catalogues live at the repository's top (locales/<tag>/window.ftl), beside
  // the core's, so one folder holds every translation.
  server: { fs: { allow: ['..'] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'safari15',
    // One module script and one stylesheet; the CSP allows only 'self'.
    modulePreload: { polyfill: false },
  },
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    // A hang guard, not a speed target: the 1,000-card and 10,000-entry list tests take
    // several seconds when the machine is busy, and vitest's default of 5 s failed them.
    testTimeout: 30_000,
  },
});
