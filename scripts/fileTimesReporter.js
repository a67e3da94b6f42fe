// A node:test reporter that writes one line per top-level test or suite: its file and its
// seconds (hooks included). scripts/test.js sums them per file to name the slowest files.
export default async function* fileTimesReporter(source) {
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      yield `${JSON.stringify({ file: event.data.file, seconds: (event.data.details?.duration_ms ?? 0) / 1000 })}\n`;
    }
  }
}
