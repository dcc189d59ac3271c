-- Version 12 (`../v12.sql`, mirrored): a lobby seek's rating range.
ALTER TABLE games ADD COLUMN rating_range BIGINT;
