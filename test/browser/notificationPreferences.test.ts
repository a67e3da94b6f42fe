// Notification preferences at desktop size (1440×900) and on a phone (390×844): one server for both, each size
// in a browser context of its own, signed in on its own.
import { useTestApp } from '../helpers.ts';
import { notificationPreferencesSuite } from './notificationPreferencesSuite.ts';

const t = useTestApp();
notificationPreferencesSuite(t, 'desktop', { width: 1440, height: 900 });
notificationPreferencesSuite(t, 'phone', { width: 390, height: 844 });
