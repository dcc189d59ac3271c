-- Version 8: tournaments. An arena (or a Swiss) with its clock, length and
-- state; its players by number (the order they joined) with their score,
-- their sheet (the finished games as the player saw them, JSON) and where
-- they are (free, playing, paused, withdrawn); and its games, each a link
-- to the stored game with the players' numbers, who berserked and the
-- first player's result once it ended (2 win, 1 draw, 0 loss; -1 aborted).
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    clock_initial_ms INTEGER NOT NULL,
    clock_increment_ms INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    starts_ms INTEGER NOT NULL,
    ends_ms INTEGER NOT NULL,
    creator TEXT NOT NULL,
    state TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX tournaments_by_end ON tournaments (ends_ms);
CREATE INDEX tournaments_by_creator ON tournaments (creator, created_ms);
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    number INTEGER NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    rating INTEGER NOT NULL,
    presence TEXT NOT NULL,
    score INTEGER NOT NULL,
    sheet TEXT NOT NULL,
    firsts INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, number),
    UNIQUE (tournament_id, player)
);
CREATE TABLE tournament_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    first INTEGER NOT NULL,
    second INTEGER NOT NULL,
    berserk_first INTEGER NOT NULL,
    berserk_second INTEGER NOT NULL,
    result INTEGER
);
CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament_id);
