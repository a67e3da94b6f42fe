// People and small things in the feed at desktop size (1440×900); the phone's is feedPeoplePhone.test.ts.
import { feedPeopleSuite } from './feedPeopleSuite.ts';

feedPeopleSuite('desktop', { width: 1440, height: 900 });
