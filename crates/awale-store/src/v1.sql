-- Version 1 of the games file (awale 0.1, before the schema was
-- versioned): what new files start from, then migrate.
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    mode TEXT NOT NULL,
    human TEXT,
    level INTEGER,
    seed INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    south_ms INTEGER,
    north_ms INTEGER,
    turn_started_ms INTEGER,
    resigned TEXT,
    flagged TEXT,
    redo TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '*',
    reason TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    letter TEXT NOT NULL,
    captured INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
