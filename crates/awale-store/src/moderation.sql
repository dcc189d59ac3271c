-- Version 15: moderation with ranks. Each moderator's action logged: who
-- (an account; none for the server's command line), when, what, on which
-- account, about which game or report, and why (required). A rated game's
-- points given back by a moderator: its changes marked refunded. Each
-- account's name skeletons (Unicode TS #39), so that a name that looks
-- like an account's is found by one indexed lookup.
CREATE TABLE moderation_log (
    id INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    by_account INTEGER REFERENCES accounts (id),
    action TEXT NOT NULL,
    target INTEGER REFERENCES accounts (id),
    game_id INTEGER,
    report_id INTEGER,
    reason TEXT NOT NULL
);
CREATE INDEX moderation_log_time ON moderation_log (at_ms);
ALTER TABLE rating_changes ADD COLUMN refunded_ms INTEGER;
-- The moderators' unusual gains: the changes of the last day.
CREATE INDEX rating_changes_time ON rating_changes (at_ms);
CREATE TABLE name_skeletons (
    skeleton TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (skeleton, account_id)
);
