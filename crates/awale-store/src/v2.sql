-- Version 2: seats and online play, ends the rules do not know, stored
-- reviews, chat, players, the server's heartbeat, the move count kept
-- with the game, and the indexes the lists need.
ALTER TABLE games ADD COLUMN stop TEXT;
UPDATE games SET stop = 'time ' || flagged WHERE flagged IS NOT NULL;
ALTER TABLE games DROP COLUMN flagged;
ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN south_player TEXT;
ALTER TABLE games ADD COLUMN south_name TEXT;
ALTER TABLE games ADD COLUMN north_player TEXT;
ALTER TABLE games ADD COLUMN north_name TEXT;
ALTER TABLE games ADD COLUMN takeback TEXT;
ALTER TABLE games ADD COLUMN rematch TEXT;
ALTER TABLE games ADD COLUMN rematch_id INTEGER;
ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
UPDATE games SET plies = (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id);
UPDATE games SET turn_started_ms = updated_ms WHERE turn_started_ms IS NULL;
CREATE INDEX games_by_time ON games (updated_ms DESC, id DESC);
CREATE INDEX games_by_south ON games (south_player, updated_ms DESC, id DESC);
CREATE INDEX games_by_north ON games (north_player, updated_ms DESC, id DESC);
CREATE INDEX games_unowned ON games (updated_ms DESC, id DESC)
    WHERE south_player IS NULL AND north_player IS NULL AND mode != 'online';
CREATE INDEX games_online ON games (mode, result, updated_ms DESC);
CREATE TABLE reviews (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    plies INTEGER NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    room TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    side TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX chat_by_game ON chat (game_id, id);
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value
);
