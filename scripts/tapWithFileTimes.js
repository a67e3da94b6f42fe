// node:test's TAP reporter, which also writes, to the file EVENTLOG_TEST_TIMES names, one line per
// top-level suite, which scripts/testWorker.js names by its test file: the file and its seconds
// (hooks included). scripts/test.js sums them per file to name the slowest files. One reporter, not
// two: a third reporter on the test stream makes Node warn of a listener leak.
import fs from 'node:fs';
import { tap } from 'node:test/reporters';

async function* recordingTimes(source, out) {
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && out !== undefined) {
      fs.appendFileSync(out, `${JSON.stringify({ file: event.data.name, seconds: (event.data.details?.duration_ms ?? 0) / 1000 })}\n`);
    }
    yield event;
  }
}

export default async function* tapWithFileTimes(source) {
  yield* tap(recordingTimes(source, process.env.EVENTLOG_TEST_TIMES));
}
