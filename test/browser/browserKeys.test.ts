// Browser keys at desktop width and on a phone, one server for both (browserKeysFlow.ts has the steps).
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { browserKeyFlow, useListening } from './browserKeysFlow.ts';
import { freePort, missingBrowser } from './support.ts';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

describe('browser keys in the browser (desktop and phone)', { skip: missingBrowser }, () => {
  useListening(t, port);

  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`creates an ingest key for one project and origin; its snippet sends from that origin, another origin is refused (${size})`, async () => {
      await browserKeyFlow(t, base, size, viewport);
    });
  }
});
