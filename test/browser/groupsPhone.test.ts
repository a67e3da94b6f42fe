// The Groups pages at phone size (390×844); the desktop's is groups.test.ts.
import { groupsSuite } from './groupsSuite.ts';

groupsSuite('phone', { width: 390, height: 844 });
