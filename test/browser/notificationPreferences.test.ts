// Notification preferences at desktop size (1440×900); the phone's is notificationPreferencesPhone.test.ts.
import { notificationPreferencesSuite } from './notificationPreferencesSuite.ts';

notificationPreferencesSuite('desktop', { width: 1440, height: 900 });
