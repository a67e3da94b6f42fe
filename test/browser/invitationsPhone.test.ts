// Invitations at phone size (390×844); the desktop's are in invitations.test.ts.
import { invitationsSuite } from './invitationsSuite.ts';

await invitationsSuite('phone', { width: 390, height: 844 });
