-- A player's mistakes as puzzles (learn from your mistakes): the position
-- before a move a game's review found a mistake (the game by its public
-- id, the move's index), the move played and the review's better one;
-- how often it was solved and tried, and when it is next due. A player
-- (a guest, or an account's player) has each mistake once.
CREATE TABLE mistakes (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    ply INTEGER NOT NULL,
    rules TEXT NOT NULL,
    position TEXT NOT NULL,
    played TEXT NOT NULL,
    best TEXT NOT NULL,
    solved INTEGER NOT NULL DEFAULT 0,
    tries INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL,
    due_ms INTEGER NOT NULL,
    UNIQUE (player, game, ply)
);
CREATE INDEX mistakes_due ON mistakes (player, due_ms);
