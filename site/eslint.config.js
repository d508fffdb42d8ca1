// ESLint for the site's TypeScript and scripts (`npm run lint`, part of `just lint`). Layout
// is Prettier's business (.prettierrc.json), types are tsc's (`npm run typecheck`); this
// checks the rest: the recommended JavaScript and TypeScript rules, the rules of React's
// hooks, no import cycles, and which folder may import which:
//
//   - public code (islands and what they use) never imports the admin app or the editor, so
//     no page carries them;
//   - the editor knows nothing of the admin app;
//   - an admin feature (admin/features/*) never imports another feature; what they share
//     lives in admin/app/ (the shell: session, API client) or admin/components/;
//   - admin/app/ and admin/components/ import no feature, except the two places that put
//     the features together: the dashboard (its tabs) and the router (the editor's route,
//     loaded lazily).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const features = readdirSync(`${root}/src/admin/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Every folder and file of the public pages' code: everything in src/ but admin/ and editor/. */
const publicCode = readdirSync(`${root}/src`)
  .filter((name) => name !== 'admin' && name !== 'editor')
  .map((name) => `./src/${name}`);

const boundaries = [
  {
    target: publicCode,
    from: ['./src/admin', './src/editor'],
    message: 'Public pages never load the admin app or the editor.',
  },
  {
    target: './src/editor',
    from: './src/admin',
    message: 'The editor knows nothing of the admin app.',
  },
  ...features.map((feature) => ({
    target: `./src/admin/features/${feature}`,
    from: './src/admin/features',
    except: [`./${feature}`],
    message: 'A feature never imports another; share through admin/app/ or admin/components/.',
  })),
  {
    target: ['./src/admin/app/!(Dashboard|router).tsx', './src/admin/app/*.ts', './src/admin/components/**'],
    from: './src/admin/features/**',
    message: 'Only the dashboard and the router put features together.',
  },
];

export default tseslint.config(
  { ignores: ['test-results/', 'playwright-report/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'e2e/editor-harness/**/*.tsx'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
      // no-cycle follows the imports through the files it parses itself.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaries }],
    },
  },
  {
    files: ['e2e/**/*.{ts,js}', 'scripts/**/*.mjs', '*.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
  {
    // Playwright reads a fixture's dependencies from its first parameter, which must be an
    // object pattern even when it needs none: `async ({}, use) => …`.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // The fake Stripe.js runs in the test browser.
    files: ['e2e/fake-stripe.js'],
    languageOptions: { globals: globals.browser },
  },
);
