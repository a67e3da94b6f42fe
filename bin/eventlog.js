#!/usr/bin/env -S node --max-semi-space-size=8
// The `eventlog` command. It runs the compiled server in dist/ when that matches the sources
// (`npm start` and postinstall compile it), and otherwise the TypeScript sources through tsx.
import { distIsCurrent } from '../scripts/serverBuild.js';

let entry = '../dist/cli/main.js';
if (!distIsCurrent()) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = '../src/cli/main.ts';
}
try {
  const { main } = await import(entry);
  await main(process.argv.slice(2));
} catch (error) {
  // A failed start (database unreachable, DATA_DIR in use) is a message for a person, not a
  // stack trace; LOG_LEVEL=debug shows the trace too.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`eventlog: ${message}\n`);
  if (process.env.LOG_LEVEL === 'debug' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}
