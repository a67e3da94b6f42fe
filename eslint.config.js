import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const browserGlobals = [
  'window', 'document', 'navigator', 'location', 'localStorage', 'fetch', 'URL', 'URLSearchParams', 'Blob', 'File',
  'FormData', 'Headers', 'Request', 'Response', 'EventSource', 'XMLHttpRequest', 'IntersectionObserver', 'DOMException',
  'Notification', 'PushManager', 'atob', 'btoa', 'getComputedStyle', 'matchMedia', 'requestAnimationFrame',
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'AbortController', 'AbortSignal', 'Event', 'MessageEvent',
  'HTMLElement', 'HTMLDialogElement', 'HTMLInputElement', 'console', 'structuredClone',
];

const featuresNeverImportRoot = {
  group: ['../app.ts', '../../app.ts', '../server.ts', '../../server.ts', '../cli/**', '../../cli/**'],
  message: 'Features never import the application root, the process entry or the command line (docs/architecture.md).',
};

/** destinations/ and push/ never import each other (docs/architecture.md, "Outbound delivery"). */
const apart = (other) => ({
  group: [`../${other}/**`, `**/features/${other}/**`],
  message: `Import nothing from features/${other}/: shared delivery code belongs in features/delivery/ or lib/outboundHttp/.`,
});

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'web/dist/', 'test-results/', '.bench-data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', setImmediate: 'readonly', structuredClone: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layers (docs/architecture.md): each rule names an arrow that must not exist.
  {
    files: ['src/db/**/*.ts', 'src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/features/**'], message: 'db/ and lib/ know no feature: pass what they need in (docs/architecture.md).' }],
      }],
    },
  },
  {
    files: ['src/lib/outboundHttp/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/features/**'], message: 'The outbound HTTP client knows no feature: callers pass what it needs in (docs/architecture.md).' }],
      }],
    },
  },
  {
    files: ['src/features/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featuresNeverImportRoot] }] },
  },
  {
    files: ['src/features/destinations/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featuresNeverImportRoot, apart('push')] }] },
  },
  {
    files: ['src/features/push/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [featuresNeverImportRoot, apart('destinations')] }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['../../src/**', '../../../src/**', '../../../../src/**'], message: 'The dashboard talks to the server over its JSON API only.' }],
      }],
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
      globals: Object.fromEntries(['self', 'clients', 'URL', 'console'].map((name) => [name, 'readonly'])),
    },
  },
);
