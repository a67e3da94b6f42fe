// The Users page at phone size (390×844); the desktop's is usersPolish.test.ts.
import { usersSuite } from './usersSuite.ts';

usersSuite('phone', { width: 390, height: 844 });
