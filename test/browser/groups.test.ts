// The Groups pages at desktop size (1440×900) and on a phone (390×844): one server for both, each size
// in a browser context of its own, signed in on its own.
import { useTestApp } from '../helpers.ts';
import { groupsSuite } from './groupsSuite.ts';

const t = useTestApp();
groupsSuite(t, 'desktop', { width: 1440, height: 900 });
groupsSuite(t, 'phone', { width: 390, height: 844 });
