-- Sign-in with OpenID Connect accepts a pending invitation for the verified email of a person who
-- has no account yet; the invitation is found by its email alone (features/oidc/queries.ts).
CREATE INDEX invitations_by_email ON invitations (lower(email));
