-- Puzzle ratings, apart from game ratings (awale-service's
-- `puzzle_rating.rs`): each solver's Glicko-2 rating (a guest's or an
-- account's player; a guest's goes with them at sign-up) with their
-- counts and streaks (the streak going on, the best); each puzzle's own
-- rating (a puzzle of the `awale` rules, known by its position); each
-- solver's first try of each puzzle, the only one rated.
CREATE TABLE puzzle_solvers (
    player TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE TABLE puzzle_ratings (
    position TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL,
    solved INTEGER NOT NULL
);
CREATE TABLE puzzle_attempts (
    player TEXT NOT NULL,
    position TEXT NOT NULL,
    solved INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (player, position)
);
