// The Audit log page at desktop width and on a phone, one server for both (auditFlow.ts has the steps).
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { auditFlow, useListening } from './auditFlow.ts';
import { freePort, missingBrowser } from './support.ts';

// Invitation links are printed with BASE_URL, so the server must know its address before it starts.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

describe('the audit log in the browser (desktop and phone)', { skip: missingBrowser }, () => {
  useListening(t, port);

  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`an invitation and a removal made on the Members page are read in the Audit log, filtered and paged (${size})`, async () => {
      await auditFlow(t, base, size, viewport);
    });
  }
});
