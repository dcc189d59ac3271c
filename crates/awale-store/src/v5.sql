-- Version 5: ratings (issue 22). A game is rated or casual from when it is
-- made; a draw offer waits in its game. Each player's Glicko-2 rating per
-- speed, and each rated game's effect on both its players (the rating
-- history, and the "+12 / -12" told at the end). Players are named by the
-- PlayerId they play as (an account's own, `accounts.player`).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN draw TEXT;
-- The speed of an online game (`blitz`...), by its clock, for the filters
-- of a player's games: set when the game is made (for the games made
-- before, `v5-speeds.sql`, run after this file).
ALTER TABLE games ADD COLUMN speed TEXT;
CREATE TABLE ratings (
    player TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    last_ms INTEGER NOT NULL,
    PRIMARY KEY (player, speed)
);
-- The leaderboards: by speed, the best ratings among the recently active.
CREATE INDEX ratings_board ON ratings (speed, rating DESC);
CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side TEXT NOT NULL,
    player TEXT NOT NULL,
    speed TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    rating_before REAL NOT NULL,
    deviation_before REAL NOT NULL,
    volatility_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    deviation_after REAL NOT NULL,
    volatility_after REAL NOT NULL,
    PRIMARY KEY (game_id, side)
);
-- A player's graph and counts per speed.
CREATE INDEX rating_changes_player ON rating_changes (player, speed, at_ms);
