/**
 * The skip reason of a store-independent test (one that runs its own embedded cluster whatever the
 * store) in every pass of `npm test` but the run's first, which runs it; false in that pass and
 * outside the runner. Whole files say so in their first comment instead (decision 230).
 */
export const ranInFirstPass = process.env.EVENTLOG_TEST_FIRST_PASS === 'no' && 'store-independent: the first pass of this run checked it (decision 230)';
