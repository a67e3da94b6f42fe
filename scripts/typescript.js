// `node --import ./scripts/typescript.js file.ts`: runs TypeScript with the hooks of
// scripts/typescriptHooks.js (decision 229). The test runner starts every test file this way.
import { register } from 'node:module';

register('./typescriptHooks.js', import.meta.url);
// Stacks and test locations name the TypeScript's lines, not those of the JavaScript esbuild made
// of it (its inline source maps; no measurable cost at load).
process.setSourceMapsEnabled(true);
