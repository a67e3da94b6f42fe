#!/usr/bin/env node
// The `eventlog` command. Sources are TypeScript, loaded through tsx: there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv.slice(2));
