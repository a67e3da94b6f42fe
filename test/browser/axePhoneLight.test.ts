// axe-core and the CSP on every page, phone size, light theme (test/browser/axeSuite.ts).
import { axeSuite } from './axeSuite.ts';

axeSuite('phone', 'light');
