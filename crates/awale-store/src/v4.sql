-- Version 4: accounts (a username and a password's argon2id hash; the
-- account plays as a player id of its own), their sessions and recovery
-- codes (only the SHA-256 of each secret is kept), the guests that
-- became an account, blocks between accounts, reports for the
-- moderators.
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    -- The username folded to lower case: unique, so `Ama` and `ama` are
    -- one name; kept when the account is deleted (nobody takes it again).
    username_key TEXT NOT NULL UNIQUE,
    player TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    role TEXT NOT NULL DEFAULT 'player',
    kid INTEGER NOT NULL DEFAULT 0,
    muted INTEGER NOT NULL DEFAULT 0,
    deleted_ms INTEGER,
    closed_ms INTEGER
);
CREATE TABLE sessions (
    digest TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE TABLE recovery_codes (
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    used_ms INTEGER,
    PRIMARY KEY (account_id, digest)
);
-- A guest (a browser's player) that became this account.
ALTER TABLE players ADD COLUMN account_id INTEGER REFERENCES accounts(id);
CREATE TABLE blocks (
    blocker INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    blocked INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE TABLE reports (
    id INTEGER PRIMARY KEY,
    reporter INTEGER NOT NULL REFERENCES accounts(id),
    reported INTEGER NOT NULL REFERENCES accounts(id),
    game_id INTEGER REFERENCES games(id) ON DELETE SET NULL,
    reason TEXT NOT NULL,
    text TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    resolved_ms INTEGER,
    resolved_by INTEGER REFERENCES accounts(id)
);
CREATE INDEX reports_open ON reports (resolved_ms, id);
