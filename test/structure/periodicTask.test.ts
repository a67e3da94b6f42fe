// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
// The one timer of the background loops (src/lib/periodicTask.ts), on a mocked clock: its interval,
// wakes that never put a pass off, due times kept across passes, and a stop that waits.
import assert from 'node:assert/strict';
import { type TestContext, describe, it } from 'node:test';
import { PeriodicTask } from '../../src/lib/periodicTask.ts';

/** A task whose passes are counted, and finish when the test says so when `held`. */
function countingTask(t: TestContext, intervalMs: number | (() => number), options: { held?: boolean } = {}) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  const passes: number[] = [];
  let finish: (() => void) | undefined;
  const task = new PeriodicTask({
    run: () => {
      passes.push(Date.now());
      return options.held ? new Promise<void>((resolve) => (finish = resolve)) : Promise.resolve();
    },
    intervalMs,
    onError: () => {},
  });
  /** Moves the clock and lets the passes' promises settle in between. */
  const settle = async () => {
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  };
  const advance = async (ms: number) => {
    // A timer already due (a delay of 0) fires on a tick of 0.
    t.mock.timers.tick(0);
    await settle();
    for (let step = 0; step < ms; step += 10) {
      t.mock.timers.tick(Math.min(10, ms - step));
      await settle();
    }
  };
  return { task, passes, advance, finish: () => finish?.() };
}

describe('PeriodicTask', () => {
  it('runs at once, then every interval after the pass ended', async (t) => {
    const { task, passes, advance } = countingTask(t, 1000);
    task.start();
    await advance(2500);
    assert.deepEqual(passes, [1_000_000, 1_001_000, 1_002_000]);
    await task.stop();
  });

  it('a wake runs a pass within its delay, and never puts off a pass armed sooner', async (t) => {
    const { task, passes, advance } = countingTask(t, 10_000);
    task.start();
    await advance(10);
    task.wake(300);
    await advance(200);
    task.wake(5000);
    await advance(100);
    assert.deepEqual(passes, [1_000_000, 1_000_310]);
    await task.stop();
  });

  it('a wake during a pass runs another right after it', async (t) => {
    const { task, passes, advance, finish } = countingTask(t, 10_000, { held: true });
    task.start();
    await advance(10);
    task.wake();
    await advance(500);
    assert.equal(passes.length, 1, 'passes never overlap');
    finish();
    await advance(10);
    assert.equal(passes.length, 2);
    finish();
    await task.stop();
  });

  it('every due time gets a pass after it, even when an earlier one ran meanwhile', async (t) => {
    const { task, passes, advance } = countingTask(t, 60_000);
    task.start();
    await advance(10);
    task.wakeIn(5000);
    task.wakeIn(1000);
    task.wakeIn(null);
    await advance(6000);
    assert.deepEqual(passes, [1_000_000, 1_001_010, 1_005_010]);
    await task.stop();
  });

  it('an interval the pass computes; nothing runs before start or after stop', async (t) => {
    let next = 200;
    const { task, passes, advance } = countingTask(t, () => next);
    task.wake();
    task.wakeIn(10);
    await advance(100);
    assert.deepEqual(passes, [], 'a wake before start is nothing');
    task.start();
    await advance(10);
    next = 700;
    await advance(300);
    assert.deepEqual(passes, [1_000_100, 1_000_300]);
    assert.equal(task.stopping, false);
    await task.stop();
    assert.equal(task.stopping, true);
    task.wake();
    await advance(2000);
    assert.equal(passes.length, 2);
  });

  it('stop waits for the pass in flight', async (t) => {
    const { task, advance, finish } = countingTask(t, 1000, { held: true });
    task.start();
    await advance(10);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await advance(50);
    assert.equal(stopped, false);
    finish();
    await stopping;
    assert.equal(stopped, true);
  });

  it('a pass run by hand answers its result, and neither it nor a scheduled pass runs beside the other', async (t) => {
    const { task, passes, advance, finish } = countingTask(t, 1000, { held: true });
    task.start();
    await advance(10);
    assert.equal(passes.length, 1, 'the first scheduled pass is in flight');
    let byHandDone = false;
    const byHand = task.runNow().then(() => (byHandDone = true));
    await advance(10);
    assert.equal(passes.length, 1, 'the pass by hand waits for the one in flight');
    finish();
    await advance(10);
    assert.equal(passes.length, 2, 'then it runs');
    await advance(3000);
    assert.equal(passes.length, 2, 'the schedule waits for it');
    finish();
    await byHand;
    assert.equal(byHandDone, true);
    await advance(1010);
    assert.equal(passes.length, 3, 'the schedule goes on an interval after it');
    finish();
    await task.stop();
  });

  it('a pass run by hand works without a schedule and throws what its pass throws', async () => {
    let calls = 0;
    const task = new PeriodicTask({
      run: () => (++calls === 1 ? Promise.resolve(41 + calls) : Promise.reject(new Error('broken'))),
      intervalMs: 1000,
      onError: () => {},
    });
    assert.equal(await task.runNow(), 42);
    await assert.rejects(task.runNow(), /broken/);
    await task.stop();
  });
});
