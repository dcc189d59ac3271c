-- A games file of schema 3 as awale wrote it (main at 1bb46c1, before the
-- migrations crate): `awale serve` on a new file, then over HTTP an online
-- public game with a clock (Ama south, Kofi north, two moves, a chat line),
-- a game against level 2 resigned after one move and reviewed, and a game
-- uploaded from the browser under the key `offline-0001`; then
-- `sqlite3 games.sqlite .dump`, and the header's two marks, which a dump
-- leaves out, added by hand at the end. Ama's cookie is 64 `a`s, Kofi's
-- 64 `b`s (the ids are their hashes).
BEGIN TRANSACTION;
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    rules TEXT NOT NULL,
    start TEXT NOT NULL,
    mode TEXT NOT NULL,
    human TEXT,
    level INTEGER,
    seed INTEGER NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    south_ms INTEGER,
    north_ms INTEGER,
    turn_started_ms INTEGER,
    resigned TEXT,
    redo TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL DEFAULT '*',
    reason TEXT
, stop TEXT, public INTEGER NOT NULL DEFAULT 0, south_player TEXT, south_name TEXT, north_player TEXT, north_name TEXT, takeback TEXT, rematch TEXT, rematch_id INTEGER, plies INTEGER NOT NULL DEFAULT 0);
INSERT INTO games VALUES(1,1796167471663,1796167471787,'awale','4-4-4-4-4-4-4-4-4-4-4-4-0-0-S','online',NULL,NULL,-930580931338273312,300000,3000,300000,300000,1796167471787,NULL,'','*',NULL,NULL,1,'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','Ama','a0fab1377f49a759b57f63318262ebe89fabfc990e8e93ceac2984561482b9d4','Kofi',NULL,NULL,NULL,2);
INSERT INTO games VALUES(2,1796167471825,1796167471901,'awale','4-4-4-4-4-4-4-4-4-4-4-4-0-0-S','computer','S',2,-3967343542800569623,NULL,NULL,NULL,NULL,1796167471837,'S','','0-1','resignation',NULL,0,'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO games VALUES(3,1760000000000,1796167471979,'awale','4-4-4-4-4-4-4-4-4-4-4-4-0-0-S','humans',NULL,NULL,-4907784428690380827,NULL,NULL,NULL,NULL,1796167471965,NULL,'','*',NULL,NULL,0,'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','','ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','',NULL,NULL,NULL,2);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    letter TEXT NOT NULL,
    captured INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
INSERT INTO moves VALUES(1,0,'F',0);
INSERT INTO moves VALUES(1,1,'f',0);
INSERT INTO moves VALUES(2,0,'C',0);
INSERT INTO moves VALUES(3,0,'F',0);
INSERT INTO moves VALUES(3,1,'f',0);
CREATE TABLE reviews (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    plies INTEGER NOT NULL,
    body TEXT NOT NULL
);
INSERT INTO reviews VALUES(2,1,'{"id":2,"plies":[{"ply":0,"side":"S","move":"C","played":{"cp":-135,"decided":false,"plies_to_end":null,"text":"-1.35 seeds"},"best":{"move":"F","score":{"cp":-15,"decided":false,"plies_to_end":null,"text":"-0.15 seeds"}},"eval_south":-15,"loss":120,"mistake":false,"oracle":null}],"end":{"reason":"resignation","stores":[0,48],"winner":"N","loser_by":"S","result":"0-1"}}');
CREATE TABLE chat (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    room TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    side TEXT,
    name TEXT NOT NULL,
    text TEXT NOT NULL
);
INSERT INTO chat VALUES(1,1,'players',1796167471795,'S','Ama','Bonne partie');
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
INSERT INTO players VALUES('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','Ama',1796167467237);
INSERT INTO players VALUES('a0fab1377f49a759b57f63318262ebe89fabfc990e8e93ceac2984561482b9d4','Kofi',1796167471727);
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value
);
INSERT INTO meta VALUES('levels',16);
INSERT INTO meta VALUES('opened_ms',1796167465247);
INSERT INTO meta VALUES('alive_ms',1796167475266);
CREATE TABLE uploads (
    player TEXT NOT NULL,
    key TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    PRIMARY KEY (player, key)
);
INSERT INTO uploads VALUES('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','offline-0001',3);
CREATE INDEX games_by_time ON games (updated_ms DESC, id DESC);
CREATE INDEX games_by_south ON games (south_player, updated_ms DESC, id DESC);
CREATE INDEX games_by_north ON games (north_player, updated_ms DESC, id DESC);
CREATE INDEX games_unowned ON games (updated_ms DESC, id DESC)
    WHERE south_player IS NULL AND north_player IS NULL AND mode != 'online';
CREATE INDEX games_online ON games (mode, result, updated_ms DESC);
CREATE INDEX chat_by_game ON chat (game_id, id);
PRAGMA application_id = 1098342764;
PRAGMA user_version = 3;
COMMIT;
