import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// Two builds (see package.json "build"): the client bundle with a manifest the generator
// reads, and a server-side bundle of the islands that pre-renders them to HTML.
// Both write to ../build, which the generator reads; dist/ belongs to the generator.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  build: isSsrBuild
    ? {
        outDir: '../build/ssr',
        emptyOutDir: true,
        rollupOptions: { output: { entryFileNames: 'ssr.js' } },
      }
    : {
        outDir: '../build/client',
        emptyOutDir: true,
        manifest: true,
        rollupOptions: { input: 'src/main.ts' },
      },
  // Bundle React into the SSR file: it runs from ../build, where no node_modules is found.
  ssr: { noExternal: true },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
}));
