// "Your account" and "API keys" at desktop size (1440×900) and on a phone (390×844): one server for both, each size
// in a browser context of its own, signed in on its own.
import { useTestApp } from '../helpers.ts';
import { accountAndKeysSuite } from './accountAndKeysSuite.ts';

const t = useTestApp();
accountAndKeysSuite(t, 'desktop', { width: 1440, height: 900 });
accountAndKeysSuite(t, 'phone', { width: 390, height: 844 });
