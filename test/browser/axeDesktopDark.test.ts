// axe-core and the CSP on every page, desktop size, dark theme (test/browser/axeSuite.ts).
import { axeSuite } from './axeSuite.ts';

axeSuite('desktop', 'dark');
