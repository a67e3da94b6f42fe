// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type App, buildApp } from '../../src/app.ts';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();
const PUBLIC = path.resolve(import.meta.dirname, '../../web/public');
const INDEX = fs.readFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), 'utf8');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: Buffer): { width: number; height: number } {
  assert.equal(file.subarray(1, 4).toString('latin1'), 'PNG');
  return { width: file.readUInt32BE(16), height: file.readUInt32BE(20) };
}

describe('the dashboard installs as an app (web app manifest)', () => {
  const state = {} as { dir: string; app: App };

  before(async () => {
    // web/public as Vite copies it into web/dist, beside an index.html.
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-manifest-'));
    fs.cpSync(PUBLIC, state.dir, { recursive: true });
    fs.writeFileSync(path.join(state.dir, 'index.html'), INDEX);
    state.app = await buildApp({ services: t.services, dashboard: { distDir: state.dir } });
    await state.app.ready();
  });
  after(async () => {
    await state.app?.close();
    fs.rmSync(state.dir, { recursive: true, force: true });
  });

  it('links the manifest, its theme colour and a touch icon from index.html', () => {
    assert.match(INDEX, /<link rel="manifest" href="\/manifest\.webmanifest" \/>/);
    assert.match(INDEX, /<meta name="theme-color" content="#[0-9a-f]{6}" \/>/);
    assert.match(INDEX, /<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon\.png" \/>/);
  });

  it('serves the manifest as application/manifest+json with what an install needs', async () => {
    const reply = await state.app.inject({ method: 'GET', url: '/app/manifest.webmanifest' });
    assert.equal(reply.statusCode, 200);
    assert.match(String(reply.headers['content-type']), /^application\/manifest\+json/);
    assert.equal(reply.headers['cache-control'], 'no-cache');
    const manifest = JSON.parse(reply.body);
    assert.equal(manifest.name, 'Eventlog');
    assert.equal(manifest.short_name, 'Eventlog');
    assert.equal(manifest.start_url, '/app/');
    assert.equal(manifest.scope, '/app/');
    assert.equal(manifest.display, 'standalone');
    assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
    assert.match(manifest.background_color, /^#[0-9a-f]{6}$/);
    const purposes = manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`);
    assert.deepEqual(purposes.sort(), ['192x192 any', '512x512 any', '512x512 maskable']);
  });

  it('serves every icon as a PNG of the size the manifest gives', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(PUBLIC, 'manifest.webmanifest'), 'utf8'));
    for (const icon of [...manifest.icons, { src: '/app/icons/apple-touch-icon.png', sizes: '180x180', type: 'image/png' }]) {
      const reply = await state.app.inject({ method: 'GET', url: icon.src });
      assert.equal(reply.statusCode, 200, icon.src);
      assert.equal(reply.headers['content-type'], 'image/png', icon.src);
      const { width, height } = pngSize(reply.rawPayload);
      assert.equal(`${width}x${height}`, icon.sizes, icon.src);
    }
  });
});
