// The live feed at phone size, light and dark (test/browser/feedSuite.ts).
import { feedSuite } from './feedSuite.ts';

await feedSuite(['phone'], false);
