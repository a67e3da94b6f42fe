// npm test runs this file in one pass only: pure functions, no database (decision 230).
// Which driver failures the server survives when they escape into the event loop (decision 091).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLostQueryUnheard } from '../../src/db/driverQuirks.ts';

const closed = () => Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });

describe('an unhandled rejection from the driver', () => {
  it('is survivable when it says the database went away', () => {
    assert.equal(isLostQueryUnheard(closed(), 'unhandledRejection'), true);
    assert.equal(isLostQueryUnheard(Object.assign(new Error('terminating connection'), { code: '57P01' }), 'unhandledRejection'), true);
  });

  it('still ends the process for anything else', () => {
    // The same error thrown (not a rejection) is a bug of ours, not a query the driver failed.
    assert.equal(isLostQueryUnheard(closed(), 'uncaughtException'), false);
    assert.equal(isLostQueryUnheard(Object.assign(new Error('syntax error'), { code: '42601' }), 'unhandledRejection'), false);
    assert.equal(isLostQueryUnheard(new TypeError('x is undefined'), 'unhandledRejection'), false);
  });
});
