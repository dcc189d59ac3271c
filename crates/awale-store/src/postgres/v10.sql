-- Version 10 (`../v10.sql`, mirrored): Swiss tournaments' rounds, each
-- game's round, the byes.
ALTER TABLE tournaments ADD COLUMN rounds BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN current_round BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN manual_rounds BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tournament_games ADD COLUMN round BIGINT NOT NULL DEFAULT 0;
CREATE TABLE tournament_byes (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    round BIGINT NOT NULL,
    number BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);
