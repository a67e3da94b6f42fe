// The Settings page at phone size (390×844); the desktop's is settingsPolish.test.ts.
import { settingsSuite } from './settingsSuite.ts';

settingsSuite('phone', { width: 390, height: 844 });
