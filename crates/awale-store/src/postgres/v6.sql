-- Version 6 (`../v6.sql`, mirrored): games named by a public id that
-- cannot be guessed, a private invitation's key, and a chat line's guest
-- number. Games stored before get `o` and 16 hex digits of randomness, as
-- the games file's do.
ALTER TABLE games ADD COLUMN public_id TEXT;
-- (gen_random_uuid is PostgreSQL's own strong randomness: 122 random bits
-- in a version-4 UUID, of which 16 hex digits are taken.)
UPDATE games SET public_id = 'o' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16);
CREATE UNIQUE INDEX games_by_public_id ON games (public_id);
ALTER TABLE games ADD COLUMN invite TEXT;
UPDATE games SET invite = replace(gen_random_uuid()::text, '-', '')
    WHERE mode = 'online' AND NOT public;
ALTER TABLE chat ADD COLUMN guest BIGINT;
UPDATE chat SET guest = CAST(substr(name, 2) AS BIGINT), name = ''
    WHERE name ~ '^#[0-9]{4}$';
