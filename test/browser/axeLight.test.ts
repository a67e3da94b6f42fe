// axe-core and the CSP on every page in the light theme, at desktop size and on a phone: one server and
// one organization for both sizes (test/browser/axeSuite.ts).
import { useTestApp } from '../helpers.ts';
import { axeSuite } from './axeSuite.ts';

const t = useTestApp();
axeSuite(t, 'light');
