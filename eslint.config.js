import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const browserGlobals = [
  'window', 'document', 'navigator', 'location', 'localStorage', 'fetch', 'URL', 'URLSearchParams', 'Blob', 'File',
  'FormData', 'Headers', 'Request', 'Response', 'EventSource', 'XMLHttpRequest', 'IntersectionObserver', 'DOMException',
  'Notification', 'PushManager', 'atob', 'btoa', 'getComputedStyle', 'matchMedia', 'requestAnimationFrame',
  'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'AbortController', 'AbortSignal', 'Event', 'MessageEvent',
  'HTMLElement', 'HTMLDialogElement', 'HTMLInputElement', 'console', 'structuredClone',
];

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
