#!/usr/bin/env node
// The `eventlog` command. Sources are TypeScript, loaded through tsx: there is no build step.
import { register } from 'tsx/esm/api';

register();
try {
  const { main } = await import('../src/cli/main.ts');
  await main(process.argv.slice(2));
} catch (error) {
  // A failed start (database unreachable, DATA_DIR in use) is a message for a person, not a
  // stack trace; LOG_LEVEL=debug shows the trace too.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`eventlog: ${message}\n`);
  if (process.env.LOG_LEVEL === 'debug' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}
