-- Sessions issued before this time (seconds since 1970) are no longer
-- valid: set when the account's password changes, so that a changed
-- password logs out every other device.
ALTER TABLE players ADD COLUMN sessions_from BIGINT NOT NULL DEFAULT 0;
