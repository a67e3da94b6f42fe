// The Settings page at desktop size (1440×900); the phone's is settingsPolishPhone.test.ts.
import { settingsSuite } from './settingsSuite.ts';

settingsSuite('desktop', { width: 1440, height: 900 });
