import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// Three builds (see package.json "build"), all into ../build, which the generator reads
// (dist/ belongs to the generator):
// - the public client bundle, with the manifest the generator links pages from;
// - the admin app (`--mode admin`), a build of its own beside it with its own manifest, so
//   the public bundles are byte for byte what they would be without it (one build with two
//   entries makes Rolldown split the chunks they share differently);
// - a server-side bundle of the islands that pre-renders them to HTML.
export default defineConfig(({ isSsrBuild, mode }) => ({
  plugins: [react(), tailwindcss()],
  build: isSsrBuild
    ? {
        outDir: '../build/ssr',
        emptyOutDir: true,
        rollupOptions: { output: { entryFileNames: 'ssr.js' } },
      }
    : mode === 'admin'
      ? {
          outDir: '../build/client',
          emptyOutDir: false,
          manifest: '.vite/admin-manifest.json',
          rollupOptions: { input: { admin: 'src/admin/main.tsx' } },
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
    // Plain Node unless a file asks for a DOM (`// @vitest-environment jsdom` on its first
    // line): setting up jsdom took half of the unit tests' time, in files that never use it.
    environment: 'node',
  },
}));
