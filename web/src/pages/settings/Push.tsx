import { useEffect, useState } from 'react';
import { describeError } from '../../api.ts';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';

const SCOPE = '/app/';

function urlBase64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const padded = (base64 + '='.repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** A browser that cannot reach its push service may never settle the subscribe call. */
const SUBSCRIBE_TIMEOUT_MS = 20_000;

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function currentSubscription(): Promise<PushSubscription | null> {
  if (!supported()) return null;
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Registers the service worker, asks permission, subscribes with the server's VAPID key and saves the subscription. */
async function subscribe(projectId: string): Promise<void> {
  if (!supported()) throw new Error('This browser does not support web push notifications');
  await navigator.serviceWorker.register('/app/sw.js', { scope: SCOPE });
  const registration = await navigator.serviceWorker.ready;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new Error(
      permission === 'denied'
        ? 'Notifications are blocked for this site. Allow them in the browser settings, then try again.'
        : 'Notification permission was not granted',
    );
  }
  const { publicKey } = await api.getVapidPublicKey();
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    subscription = await withTimeout(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToBytes(publicKey) }),
      SUBSCRIBE_TIMEOUT_MS,
      "The browser's push service did not answer. Check the network connection and try again.",
    );
  }
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('The browser returned an incomplete push subscription');
  await api.subscribePush({
    path: { projectId },
    body: { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } },
  });
}

async function unsubscribe(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api.unsubscribePush({ body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}

export function PushSection({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [subscribed, setSubscribed] = useState(false);
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    currentSubscription().then(
      (subscription) => setSubscribed(subscription !== null),
      () => setSubscribed(false),
    );
  }, []);

  const run = async (action: 'enable' | 'disable') => {
    setBusy(true);
    setState(null);
    try {
      if (action === 'enable') {
        await subscribe(projectId);
        setSubscribed(true);
        setState({ ok: true, text: 'This browser will now get a notification for every notify event of this project.' });
      } else {
        await unsubscribe();
        setSubscribed(false);
        setState({ ok: true, text: 'Push notifications are off for this browser.' });
      }
    } catch (error) {
      setState({ ok: false, text: describeError(error) });
      toast.error(error, action === 'enable' ? 'Push notifications were not enabled' : 'Push notifications were not turned off');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="push-title">
      <h2 id="push-title">Push notifications</h2>
      <p className="muted">Get a browser notification on this device whenever an event is sent with notify set to true.</p>
      {!supported() && <p className="banner banner-info">This browser does not support web push notifications.</p>}
      <div className="row-actions">
        <button type="button" className="button button-primary" disabled={busy || !supported()} onClick={() => void run('enable')}>
          {busy ? 'Working…' : subscribed ? 'Enable push for this project too' : 'Enable push on this device'}
        </button>
        {subscribed && (
          <button type="button" className="button" disabled={busy} onClick={() => void run('disable')}>
            Turn off push on this device
          </button>
        )}
      </div>
      {state && (
        <p className={state.ok ? 'banner banner-success' : 'banner banner-error'} role="status">
          {state.text}
        </p>
      )}
    </section>
  );
}
