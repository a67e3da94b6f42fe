// Notification preferences on a phone (390×844); the desktop's is notificationPreferences.test.ts.
import { notificationPreferencesSuite } from './notificationPreferencesSuite.ts';

notificationPreferencesSuite('phone', { width: 390, height: 844 });
