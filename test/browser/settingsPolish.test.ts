// The Settings page at desktop size (1440×900) and on a phone (390×844): one server for both, each size
// in a browser context of its own, signed in on its own.
import { useTestApp } from '../helpers.ts';
import { settingsSuite } from './settingsSuite.ts';

// Loopback receivers stand for the services: private addresses are allowed for the test.
const t = useTestApp({ ALLOW_PRIVATE_WEBHOOK_URLS: '1' });
settingsSuite(t, 'desktop', { width: 1440, height: 900 });
settingsSuite(t, 'phone', { width: 390, height: 844 });
