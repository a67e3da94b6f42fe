// Invitations at desktop size (1440×900) and on a phone (390×844): one server for both, each size
// with an organization and browsers of its own.
import { invitationsSuite, useInvitationServer } from './invitationsSuite.ts';

const server = await useInvitationServer();
invitationsSuite(server, 'desktop', { width: 1440, height: 900 });
invitationsSuite(server, 'phone', { width: 390, height: 844 });
