-- A destination type can be reserved for signed-in users: resolve answers `"requiresSignIn": true` for
-- its links, and a generated router keeps such a destination until the app reports a signed-in user
-- (docs/CODEGEN.md).
ALTER TABLE destinations ADD COLUMN requires_sign_in boolean NOT NULL DEFAULT false;
