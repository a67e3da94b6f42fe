// People and small things in the feed at desktop size (1440×900) and on a phone (390×844): one server and one
// organization for both, each size in a browser context of its own, signed in on its own.
import { useTestApp } from '../helpers.ts';
import { feedPeopleSuite } from './feedPeopleSuite.ts';

const t = useTestApp();
feedPeopleSuite(t);
