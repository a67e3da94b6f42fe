// One of a pass's test processes (decision 231): it takes the pass's test files one at a time from
// a queue it shares with the others, and runs each inside a suite named by the file, so the file's
// top-level hooks belong to that suite and run around its tests alone. The queue is the list
// EVENTLOG_TEST_QUEUE names; a file is taken by creating its claim folder, which only one process
// can do. A process starts once and pays Node's start-up and the sources' loading once, for all the
// files it takes, instead of once per file.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe } from 'node:test';

const queue = JSON.parse(fs.readFileSync(process.env.EVENTLOG_TEST_QUEUE, 'utf8'));

/** True when this process took the file at `index`: its claim folder did not exist yet. */
function claim(index) {
  try {
    fs.mkdirSync(path.join(queue.claims, String(index)));
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}

export async function runQueuedFiles() {
  for (const [index, file] of queue.files.entries()) {
    if (!claim(index)) continue;
    // The suite's timeout bounds the whole file, as a process of its own was bounded before.
    await describe(path.relative(queue.root, file), { timeout: queue.fileTimeoutMs }, async () => {
      await import(pathToFileURL(file).href);
    });
  }
}
