// People and small things in the feed on a phone (390×844); the desktop's is feedPeople.test.ts.
import { feedPeopleSuite } from './feedPeopleSuite.ts';

feedPeopleSuite('phone', { width: 390, height: 844 });
