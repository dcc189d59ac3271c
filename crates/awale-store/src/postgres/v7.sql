-- Version 7 (`../v7.sql`, mirrored): games over days, whose clock gives a
-- side its whole time again after each move on time.
ALTER TABLE games ADD COLUMN clock_per_move BOOLEAN NOT NULL DEFAULT FALSE;
