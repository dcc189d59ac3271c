-- Version 11: a tournament's chat room (players and watchers of its
-- page): who spoke (their player id, never shown, for blocks), the name
-- shown, the text, the guest number of a guest without a nickname.
CREATE TABLE tournament_chat (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    at_ms INTEGER NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    guest INTEGER
);
CREATE INDEX tournament_chat_room ON tournament_chat (tournament_id, id);
