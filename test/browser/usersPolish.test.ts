// The Users page at desktop size (1440×900); the phone's is usersPolishPhone.test.ts.
import { usersSuite } from './usersSuite.ts';

usersSuite('desktop', { width: 1440, height: 900 });
