// Loaded with `--import` into a server process a test starts (restart.test.ts): the process's
// clock runs TEST_CLOCK_OFFSET_MS ahead of the machine's, so a test moves a real server past the
// end of a quiet window or a snooze without waiting for it. Only `Date` moves; timers and
// performance.now() keep real time, and the database's now() is untouched.
const offset = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0);
if (!Number.isFinite(offset)) throw new Error(`TEST_CLOCK_OFFSET_MS must be a number of milliseconds, got ${process.env.TEST_CLOCK_OFFSET_MS}`);

const RealDate = Date;
const now = () => RealDate.now() + offset;

// A Proxy rather than a subclass: dates made anywhere keep Date.prototype, so `instanceof Date`
// and the driver's serialization are unchanged.
globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget),
  apply: () => new RealDate(now()).toString(),
  get: (target, key, receiver) => (key === 'now' ? now : Reflect.get(target, key, receiver)),
});
