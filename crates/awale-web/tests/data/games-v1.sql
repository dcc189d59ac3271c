-- A games file as awale 0.1 (main at 4712cf4) wrote it: schema version 1,
-- no application id. Game 1 goes on (two people); game 2 was lost on time.
CREATE TABLE games (
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
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    letter TEXT NOT NULL,
    captured INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
INSERT INTO games VALUES (1, 1700000000000, 1700000100000, 'awale', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S',
    'humans', NULL, NULL, 42, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '', '*', NULL);
INSERT INTO games VALUES (2, 1700000000000, 1700000050000, 'awale', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S',
    'computer', 'S', 3, 7, 60000, 0, 1000, 60000, 1700000040000, NULL, 'S', '', '0-1', 'time');
INSERT INTO moves VALUES (1, 0, 'F', 0), (1, 1, 'f', 0), (1, 2, 'A', 0);
INSERT INTO moves VALUES (2, 0, 'F', 0);
