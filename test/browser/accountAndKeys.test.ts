// "Your account" and "API keys" at desktop size (1440×900); the phone's is accountAndKeysPhone.test.ts.
import { accountAndKeysSuite } from './accountAndKeysSuite.ts';

accountAndKeysSuite('desktop', { width: 1440, height: 900 });
