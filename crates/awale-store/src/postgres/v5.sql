-- Version 5 (`../v5.sql`, mirrored): rated games, draw offers, ratings
-- (Glicko-2 per speed) and each rated game's effect on its players.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN draw TEXT;
-- The speed of an online game, by its clock (the players' games filtered
-- by it); a database of version 4 holds no online games with one yet to
-- classify, since PostgreSQL stores came after the speeds.
ALTER TABLE games ADD COLUMN speed TEXT;
CREATE TABLE ratings (
    player TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_ms BIGINT NOT NULL,
    PRIMARY KEY (player, speed)
);
CREATE INDEX ratings_board ON ratings (speed, rating DESC);
CREATE TABLE rating_changes (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side TEXT NOT NULL,
    player TEXT NOT NULL,
    speed TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, side)
);
CREATE INDEX rating_changes_player ON rating_changes (player, speed, at_ms);
