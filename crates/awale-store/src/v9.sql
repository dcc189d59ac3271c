-- Version 9: direct challenges, from a player's page: who asks whom
-- (players' ids, with the names the game will show), the clock, rated
-- or casual, the challenger's side (`S`, `N`, `R` drawn at acceptance),
-- its state (`open`, `accepted`, `declined`, `withdrawn`) and the game
-- made when accepted (its public id).
CREATE TABLE challenges (
    id INTEGER PRIMARY KEY,
    from_player TEXT NOT NULL,
    from_name TEXT NOT NULL,
    to_player TEXT NOT NULL,
    to_name TEXT NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    rated INTEGER NOT NULL DEFAULT 0,
    colour TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'open',
    game TEXT,
    settled_ms INTEGER
);
CREATE INDEX challenges_to ON challenges (to_player, state);
CREATE INDEX challenges_from ON challenges (from_player, state);
