/* Eventlog dashboard service worker: shows web push notifications and opens their link. */

const DEFAULT_URL = '/app/';

function safeUrl(raw) {
  if (typeof raw !== 'string' || raw === '') return DEFAULT_URL;
  try {
    const url = new URL(raw, self.location.origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : DEFAULT_URL;
  } catch {
    return DEFAULT_URL;
  }
}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

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
