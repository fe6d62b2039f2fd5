// ESLint flat config for the whole workspace (run from the repo root: `npx eslint .`).
// Besides the usual recommended sets it enforces the layering described in the README / DESIGN.md:
//   server, high to low: main.ts → app.ts, services.ts → domains → jobs, http, events → media, providers → db → contract
//   in a domain: routes never touch kysely, stores or db; only stores (and db, migrations, tools, tests) use kysely values
//   web: api never imports pages/components; components never import pages; nothing imports server/
//   packages/contract imports nothing of server or web
// Tests, test support and tools may import anything.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const root = path.dirname(fileURLToPath(import.meta.url));

// Test files and helpers are exempt from the layering rules.
const testFiles = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/*.api.test.ts',
  '**/*.pg.test.ts',
  'server/src/test/**',
  'server/src/tools/**',
  '**/fixtures/**',
  '**/__fixtures__/**',
];

// Server layers, highest first. A file in layer i may not import a file of any layer before it.
const serverLayers = [
  ['server/src/main.ts'],
  ['server/src/app.ts', 'server/src/services.ts'],
  ['server/src/domains'],
  ['server/src/jobs', 'server/src/http', 'server/src/events'],
  ['server/src/media', 'server/src/providers'],
  ['server/src/db'],
];
const serverLayerZones = serverLayers.slice(1).flatMap((layer, i) => {
  const higher = serverLayers.slice(0, i + 1).flat();
  return layer.map((target) => ({
    target: `./${target}`,
    from: higher.map((p) => `./${p}`),
    message: `Layering: ${target} sits below ${higher.join(', ')} and must not import from it (move the shared piece down).`,
  }));
});

const kyselyRestriction = {
  name: 'kysely',
  message: 'Only *.store.ts files (and db/, migrations, tools, tests) may use kysely values; move the query into a store method.',
  allowTypeImports: true,
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/demo-data/**',
      '**/data/**',
      '**/.test-results/**',
      '**/test-results/**',
      'e2e/screenshots/**',
      'bench/results/**',
      'web/public/**',
      '**/playwright-report/**',
      '**/coverage/**',
      '**/.tmp/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  // ---- import cycles (server, web, packages) ----
  {
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.d.ts', '.js'] },
          conditionNames: ['types', 'import', 'default'],
          mainFields: ['types', 'module', 'main'],
          alias: { '@': [path.join(root, 'web/src')] },
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },

  // ---- server: layering ----
  {
    files: ['server/src/**/*.ts'],
    ignores: testFiles,
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: serverLayerZones }],
    },
  },
  // server: kysely values only in stores, db, migrations, tools and tests
  {
    files: ['server/src/**/*.ts'],
    ignores: [...testFiles, 'server/src/**/*.store.ts', 'server/src/db/**', '**/migrations/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [kyselyRestriction] }],
    },
  },
  // server: routes parse and answer; no kysely (not even types), no stores, no db
  {
    files: ['server/src/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: 'A *.routes.ts file must not touch kysely; call a service (which calls a store).' }],
          patterns: [
            {
              group: ['**/*.store', '**/*.store.js', '**/*.store.ts'],
              message: 'A *.routes.ts file must not import a store; go through the domain service.',
            },
            {
              group: ['**/db/**', '**/db'],
              message: 'A *.routes.ts file must not import db/; go through the domain service.',
            },
          ],
        },
      ],
    },
  },

  // ---- contract: imports nothing of server or web ----
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: './packages/contract',
              from: ['./server', './web'],
              message: 'The contract package must not import from server or web.',
            },
          ],
        },
      ],
    },
  },

  // ---- web ----
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // This rule warns that the React Compiler cannot memoize components using TanStack Virtual's hooks. The console
      // is not built with the React Compiler, so the warning is noise here.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: testFiles,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: './web/src/api',
              from: ['./web/src/pages', './web/src/components'],
              message: 'web/src/api must not import pages or components.',
            },
            {
              target: './web/src/components',
              from: ['./web/src/pages'],
              message: 'components must not import pages.',
            },
            { target: './web', from: ['./server'], message: 'The web console must not import from server/.' },
          ],
        },
      ],
    },
  },
  // web test files still must not reach into server/
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '@shoko-ts/server', '@shoko-ts/server/**'],
              message: 'The web console must not import from server/.',
            },
          ],
        },
      ],
    },
  },

  // ---- browser-side code in e2e (page.evaluate callbacks) ----
  {
    files: ['e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
