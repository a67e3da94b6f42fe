// The Alerts tab in a real browser at desktop width and on a phone, one server for both (alertsFlow.ts has the steps).
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { alertFlow, useAlertEngine } from './alertsFlow.ts';
import { freePort, missingBrowser } from './support.ts';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
// The engine takes every organization's work: this file has a database of its own.
const t = useTestApp({ BASE_URL: base }, { ownDatabase: true });

describe('alerts in the browser (desktop and phone)', { skip: missingBrowser }, () => {
  useAlertEngine(t, port);

  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`creates an alert from the feed's filters, watches it fire and resolve, mutes it, reads its history (${size})`, async () => {
      await alertFlow(t, base, size, viewport);
    });
  }
});
