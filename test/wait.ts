// The one place the tests wait (test/structure/oneWait.test.ts keeps it so): a test waits for what
// it can observe, polling a condition until it holds; a fixed pause is only for time itself.
import { inspect } from 'node:util';

type Falsy = false | 0 | 0n | '' | null | undefined;

export interface WaitOptions {
  /** What is awaited, in words: the error on timeout starts with it. */
  message: string;
  /** Five seconds unless the caller knows its wait is longer; a loaded machine may stall a pass for a second. */
  timeoutMs?: number;
  /** Pause between two checks. */
  intervalMs?: number;
}

/**
 * Calls `condition` until it returns a truthy value, and returns that value. A check that throws
 * counts as not yet (a server still starting refuses connections). On timeout the error says what
 * was awaited and the last value or error seen.
 */
export async function waitUntil<T>(condition: () => T | Promise<T>, { message, timeoutMs = 5_000, intervalMs = 20 }: WaitOptions): Promise<Exclude<T, Falsy>> {
  const deadline = Date.now() + timeoutMs;
  let last: { value: unknown } | { error: unknown };
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as Exclude<T, Falsy>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() > deadline) {
      const seen = 'error' in last ? `last error: ${inspect(last.error)}` : `last value: ${inspect(last.value)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}; ${seen}`);
    }
    await sleep(intervalMs);
  }
}

/**
 * A fixed pause: only where time itself is what is tested (a retry's backoff, a rate window, a
 * request sent slowly), or where a test checks that something does NOT happen within a while.
 * Anything that waits for something to happen uses waitUntil on its observable effect.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
