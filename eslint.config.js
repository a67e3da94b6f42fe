import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const browserGlobals = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'fetch',
  'URL',
  'URLSearchParams',
  'Blob',
  'File',
  'FormData',
  'Headers',
  'Request',
  'Response',
  'EventSource',
  'XMLHttpRequest',
  'IntersectionObserver',
  'DOMException',
  'Notification',
  'PushManager',
  'atob',
  'btoa',
  'getComputedStyle',
  'matchMedia',
  'requestAnimationFrame',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'AbortController',
  'AbortSignal',
  'Event',
  'MessageEvent',
  'HTMLElement',
  'HTMLDialogElement',
  'HTMLInputElement',
  'console',
  'structuredClone',
];

const featuresNeverImportRoot = {
  group: ['../app.ts', '../../app.ts', '../server.ts', '../../server.ts', '../cli/**', '../../cli/**'],
  message: 'Features never import the application root, the process entry or the command line (docs/architecture.md).',
};

/**
 * A feature calls another feature's verbs and exported helpers, never its SQL: each table has one
 * owning feature (docs/architecture.md, "Who owns which table"). `../other/queries.ts` and any
 * `../other/*Queries.ts`; a file's own feature (`./queries.ts`, `../queries.ts` from a subfolder)
 * is its own business.
 */
const featuresNeverImportOthersQueries = {
  regex: '^(\\.\\./)+[^/.]+/(.+/)?[^/]*[qQ]ueries\\.ts$',
  message: "Import another feature's verbs or exported helpers, never its queries: only the owning feature runs SQL on its tables (docs/architecture.md).",
};

/** destinations/ and push/ never import each other (docs/architecture.md, "Outbound delivery"). */
const apart = (other) => ({
  group: [`../${other}/**`, `**/features/${other}/**`],
  message: `Import nothing from features/${other}/: shared delivery code belongs in features/delivery/ or lib/outboundHttp/.`,
});

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'web/dist/', 'test-results/', '.bench-data/'] },
  js.configs.recommended,
  // Type-checked rules: each file is checked with the tsconfig nearest to it (the root one for
  // src/, test/, scripts/, bench/; web/tsconfig.json for the dashboard; client/tsconfig.json for
  // the client library), so a promise nobody awaits or an `any` leaking out of a call fails lint.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test awaits the promises test() and describe() return itself.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
    },
  },
  // Plain JavaScript (bin/, scripts/*.js, the service worker) is in no tsconfig.
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
  {
    // Tests read replies as `any` on purpose (Reply.body in test/helpers.ts: arbitrary JSON that the
    // assertions then check), so the rules that trace `any` would flag every assertion, not a bug.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        setImmediate: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layers (docs/architecture.md): each rule names an arrow that must not exist.
  {
    // A file is read in one sitting: past 300 lines it is two rooms (docs/architecture.md).
    // Generated files are read through their source (the route schemas), not in a sitting.
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/generated/**'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    files: ['src/db/**/*.ts', 'src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/features/**'], message: 'db/ and lib/ know no feature: pass what they need in (docs/architecture.md).' }],
        },
      ],
    },
  },
  {
    files: ['src/lib/outboundHttp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/features/**'], message: 'The outbound HTTP client knows no feature: callers pass what it needs in (docs/architecture.md).' },
          ],
        },
      ],
    },
  },
  {
    // Every verb and route imports these: they name what they need of a feature in ports.ts, and
    // services.ts (the composition root) hands the feature in.
    files: ['src/context.ts', 'src/ports.ts', 'src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**'],
              message: 'context.ts, ports.ts and http/ know no feature: declare what they need in ports.ts (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/features/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featuresNeverImportRoot, featuresNeverImportOthersQueries] }] },
  },
  {
    files: ['src/features/destinations/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featuresNeverImportRoot, featuresNeverImportOthersQueries, apart('push')] }] },
  },
  {
    files: ['src/features/push/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featuresNeverImportRoot, featuresNeverImportOthersQueries, apart('destinations')] }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../src/**', '../../../src/**', '../../../../src/**'], message: 'The dashboard talks to the server over its JSON API only.' },
          ],
        },
      ],
    },
  },
  {
    // The dashboard runs in the browser.
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: Object.fromEntries(browserGlobals.map((name) => [name, 'readonly'])) },
  },
  {
    files: ['web/public/sw.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(['self', 'clients', 'caches', 'fetch', 'URL', 'console'].map((name) => [name, 'readonly'])),
    },
  },
);
