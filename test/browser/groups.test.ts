// The Groups pages at desktop size (1440×900); the phone's is groupsPhone.test.ts.
import { groupsSuite } from './groupsSuite.ts';

groupsSuite('desktop', { width: 1440, height: 900 });
