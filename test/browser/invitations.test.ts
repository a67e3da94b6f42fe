// Invitations at desktop size (1440×900); the phone's are in invitationsPhone.test.ts.
import { invitationsSuite } from './invitationsSuite.ts';

await invitationsSuite('desktop', { width: 1440, height: 900 });
