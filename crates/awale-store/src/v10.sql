-- Version 10: Swiss tournaments. A tournament's number of rounds (0 for
-- an arena), the round paired last (0 before the first) and whether the
-- organiser starts each round by hand; each game's round (0 in an arena);
-- the byes, a player by round.
ALTER TABLE tournaments ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN current_round INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN manual_rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round)
);
