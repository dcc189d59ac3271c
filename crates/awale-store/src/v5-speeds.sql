-- Version 5, after `v5.sql`, in the games file only (PostgreSQL stores
-- came after the speeds): the speed of each online game made before, by
-- the formula of `awale_model::rating::Speed::of` (initial + 68 x
-- increment, in seconds, against lichess's bounds).
UPDATE games SET speed = CASE
    WHEN clock_initial_ms IS NULL THEN 'correspondence'
    WHEN (clock_initial_ms + 68 * clock_increment_ms) / 1000 < 30 THEN 'ultra_bullet'
    WHEN (clock_initial_ms + 68 * clock_increment_ms) / 1000 < 180 THEN 'bullet'
    WHEN (clock_initial_ms + 68 * clock_increment_ms) / 1000 < 480 THEN 'blitz'
    WHEN (clock_initial_ms + 68 * clock_increment_ms) / 1000 < 1500 THEN 'rapid'
    ELSE 'classical' END
WHERE mode = 'online';
