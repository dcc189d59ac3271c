-- Version 6: games named by a public id that cannot be guessed (games are
-- numbered in order: anyone could walk them), and a private invitation's
-- key, without which a stranger cannot take its free seat. New games get
-- ten characters of base62 from the server (`WebGame::give_keys`); games
-- stored before get `o` and 16 hex digits of SQLite's randomness (64 bits,
-- a letter first, so it is never read as an old link's number). And a
-- chat line's guest number (a sender without a nickname), which the page
-- words, where `#NNNN` was stored as the name.
ALTER TABLE games ADD COLUMN public_id TEXT;
UPDATE games SET public_id = 'o' || lower(hex(randomblob(8)));
CREATE UNIQUE INDEX games_by_public_id ON games (public_id);
ALTER TABLE games ADD COLUMN invite TEXT;
UPDATE games SET invite = lower(hex(randomblob(16))) WHERE mode = 'online' AND public = 0;
ALTER TABLE chat ADD COLUMN guest INTEGER;
UPDATE chat SET guest = CAST(substr(name, 2) AS INTEGER), name = ''
    WHERE name GLOB '#[0-9][0-9][0-9][0-9]';
