// Browser keys at phone width (browserKeysFlow.ts has the steps).
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';
import { browserKeyFlow, useListening } from './browserKeysFlow.ts';
import { freePort, missingBrowser } from './support.ts';

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const t = useTestApp({ BASE_URL: base });

describe('browser keys in the browser (phone)', { skip: missingBrowser }, () => {
  useListening(t, port);

  it("creates an ingest key for one project and origin; its snippet sends from that origin, another origin is refused", async () => {
    await browserKeyFlow(t, base, 'phone', { width: 390, height: 844 });
  });
});
