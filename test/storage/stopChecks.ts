// What the stop tests check: the server exited 0 and no PostgreSQL of its data directory is left.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { type ServerProcess, waitFor } from './processes.ts';

/** Every live process started on this data directory: the postmaster and anything it left. */
export function postgresOf(dataDir: string): number[] {
  const pg = path.join(dataDir, 'pg');
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        if (fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')) return false;
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(pg);
      } catch {
        return false;
      }
    })
    .map(Number);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function expectNothingLeft(dataDir: string, server: ServerProcess, when: string) {
  const exit = await Promise.race([server.exited, sleep(15_000).then(() => 'hung' as const)]);
  assert.notEqual(exit, 'hung', `${when}: the server did not exit:\n${server.output.slice(-3000)}`);
  assert.deepEqual(exit, { code: 0, signal: null }, `${when}: ${server.output.slice(-3000)}`);
  // The postmaster exited before the server did; its backends may need a moment more.
  const left = await waitFor(`no PostgreSQL of ${dataDir}`, () => (postgresOf(dataDir).length === 0 ? 'none' : null), 5000).catch(() => postgresOf(dataDir));
  assert.equal(left, 'none', `${when}: PostgreSQL left running: ${JSON.stringify(left)}\n${server.output.slice(-3000)}`);
}

