/*
 * Eventlog dashboard service worker (registered by main.tsx on every load, scope /app/):
 * - keeps the app shell (index.html and the hashed assets it loads) and an offline page, so the
 *   installed app opens without a network: pages are fetched from the network first and fall
 *   back to the cached shell, then to the offline page;
 * - never touches /api: its answers always come from the server (or fail), never from a cache;
 * - shows web push notifications and opens their link.
 */

const DEFAULT_URL = '/app/';
/** A new name when what is cached changes shape; activate deletes every other eventlog cache. */
const CACHE = 'eventlog-shell-v1';
const SHELL_URL = '/app/';
const OFFLINE_URL = '/app/offline.html';
const PRECACHE = [OFFLINE_URL, '/app/offline.css', '/app/favicon.svg', '/app/manifest.webmanifest', '/app/icons/icon-192.png'];

/** The shell's hashed scripts and styles, read from index.html, so the first offline load works. */
function assetsOf(html) {
  const urls = new Set();
  for (const match of html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)) urls.add(match[1]);
  return [...urls];
}

/**
 * Caches a fresh shell with the assets it loads. When the shell changed (a new build), the
 * assets of the old build go; a lazily loaded chunk is cached again when it is next used.
 */
async function refreshShell(response) {
  const cache = await caches.open(CACHE);
  const html = await response.clone().text();
  const previous = await cache.match(SHELL_URL, { ignoreVary: true });
  if (previous && (await previous.text()) === html) return;
  const assets = assetsOf(html);
  await Promise.all(assets.map(async (url) => ((await cache.match(url, { ignoreVary: true })) ? undefined : cache.add(url))));
  if (previous) {
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      if (path.startsWith('/app/assets/') && !assets.includes(path)) await cache.delete(request);
    }
  }
  await cache.put(SHELL_URL, response);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(PRECACHE);
      const shell = await fetch(SHELL_URL, { cache: 'no-cache' });
      if (shell.ok) await refreshShell(shell);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('eventlog-') && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** A page of the app: the network first (a fresh shell is cached), then the cached shell, then the offline page. */
async function navigate(request) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && (response.headers.get('content-type') || '').startsWith('text/html')) {
      const copy = response.clone();
      // Kept in the background: the page need not wait for the cache.
      refreshShell(copy).catch(() => undefined);
    }
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    const cached = (await cache.match(SHELL_URL, { ignoreVary: true })) || (await cache.match(OFFLINE_URL, { ignoreVary: true }));
    if (cached) return cached;
    throw error;
  }
}

/**
 * A hashed asset never changes: the cache first, else the network (and keep it). Every match
 * ignores Vary: the server varies on Origin (CORS), which a module script's request and the
 * install's request differ in.
 */
async function asset(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** Icons, the manifest and the offline page: the network first, the cache when offline. */
async function staticFile(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await (await caches.open(CACHE)).match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // Only this origin's dashboard files: /api (the JSON API, the live stream) always goes to the network.
  if (url.origin !== self.location.origin || !url.pathname.startsWith('/app/') || url.pathname === '/app/sw.js') return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (url.pathname.startsWith('/app/assets/')) event.respondWith(asset(request));
  else event.respondWith(staticFile(request));
});

function safeUrl(raw) {
  if (typeof raw !== 'string' || raw === '') return DEFAULT_URL;
  try {
    const url = new URL(raw, self.location.origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : DEFAULT_URL;
  } catch {
    return DEFAULT_URL;
  }
}

self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { title: event.data ? event.data.text() : 'Eventlog' };
  }
  const icon = typeof payload.icon === 'string' ? payload.icon : '';
  // The event icon is usually an emoji, which a notification cannot use as an image.
  const iconIsImage = /^(https?:\/\/|\/)/.test(icon);
  const title = `${icon && !iconIsImage ? `${icon} ` : ''}${typeof payload.title === 'string' && payload.title ? payload.title : 'Eventlog'}`;
  const options = {
    body: typeof payload.body === 'string' ? payload.body : '',
    data: { url: safeUrl(payload.url) },
    icon: iconIsImage ? icon : '/app/favicon.svg',
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || DEFAULT_URL;
  event.waitUntil(
    clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url && 'focus' in client) return client.focus();
      }
      return clients.openWindow(url);
    }),
  );
});
