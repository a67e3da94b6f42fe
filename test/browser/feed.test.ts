// The live feed at desktop size, light and dark, and on a touch screen (test/browser/feedSuite.ts).
import { feedSuite } from './feedSuite.ts';

await feedSuite(['desktop'], true);
