// The live feed at desktop size and on a phone, light and dark, and on a touch screen: one server
// for all (test/browser/feedSuite.ts).
import { feedSuite } from './feedSuite.ts';

await feedSuite(['desktop', 'phone'], true);
