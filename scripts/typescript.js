// `node --import ./scripts/typescript.js file.ts`: runs TypeScript with the hooks of
// scripts/typescriptHooks.js (decision 229). The test runner starts every test file this way.
import { register } from 'node:module';

register('./typescriptHooks.js', import.meta.url);
