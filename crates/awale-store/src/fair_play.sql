-- Version 17: fair play kept in the store (issue 38), so that every
-- process sharing it, and the next start, know what one saw. Where each
-- account was seen lately (a place: `address:IP` or `device:PLAYER`, the
-- browser's own player), refreshed at most every few minutes; the pairs
-- of accounts flagged for a rated game played casual because they were
-- seen at one place (one row a pair, the two in one order); the rated
-- games each pair began, for the limit of rated games a pair plays a day.
CREATE TABLE sightings (
    player TEXT NOT NULL,
    place TEXT NOT NULL,
    seen_ms INTEGER NOT NULL,
    PRIMARY KEY (player, place)
);
CREATE INDEX sightings_time ON sightings (seen_ms);
CREATE TABLE flagged_pairs (
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    name_a TEXT NOT NULL,
    name_b TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    address INTEGER NOT NULL,
    device INTEGER NOT NULL,
    times INTEGER NOT NULL,
    PRIMARY KEY (player_a, player_b)
);
CREATE INDEX flagged_pairs_time ON flagged_pairs (at_ms);
CREATE TABLE rated_pairs (
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX rated_pairs_of_pair ON rated_pairs (player_a, player_b, at_ms);
CREATE INDEX rated_pairs_time ON rated_pairs (at_ms);
