// "Your account" and "API keys" on a phone (390×844); the desktop's is accountAndKeys.test.ts.
import { accountAndKeysSuite } from './accountAndKeysSuite.ts';

accountAndKeysSuite('phone', { width: 390, height: 844 });
