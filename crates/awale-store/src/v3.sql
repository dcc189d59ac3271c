-- Version 3: the games a browser played without a network and uploaded
-- once back online, by the key the browser gave each one, so that an
-- upload sent twice stores the game once.
CREATE TABLE uploads (
    player TEXT NOT NULL,
    key TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    PRIMARY KEY (player, key)
);
