-- Version 12: a lobby seek's rating range: the most the rating (in the
-- game's speed) of who takes its free seat may differ from its maker's
-- (NULL: anyone may take it).
ALTER TABLE games ADD COLUMN rating_range INTEGER;
