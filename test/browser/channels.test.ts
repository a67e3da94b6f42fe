// Channel destinations in the browser at desktop size (1440×900) and on a phone (390×844): one server for both, each size
// in a browser context of its own, signed in on its own.
import { useTestApp } from '../helpers.ts';
import { channelsSuite } from './channelsSuite.ts';

// Loopback receivers stand for the services: private addresses are allowed for the test.
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' });
channelsSuite(t, 'desktop', { width: 1440, height: 900 });
channelsSuite(t, 'phone', { width: 390, height: 844 });
