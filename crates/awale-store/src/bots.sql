-- Version 14: bots and personal API tokens. An account upgraded to a
-- bot (for good: it plays only through the API); a token's digest (the
-- token itself is shown once and never kept), its owner, a name its owner
-- chose, its scopes (`bot:play`, `board:play`, `read`, space-separated),
-- when made and when revoked.
ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    digest TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    revoked_ms INTEGER
);
CREATE INDEX api_tokens_account ON api_tokens (account_id);
