// axe-core and the CSP on every page in the light theme, at desktop size and on a phone: one server
// for both sizes (test/browser/axeSuite.ts).
import { useTestApp } from '../helpers.ts';
import { axeSuite } from './axeSuite.ts';

const t = useTestApp();
axeSuite(t, 'desktop', 'light');
axeSuite(t, 'phone', 'light');
