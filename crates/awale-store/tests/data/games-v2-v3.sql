-- The rows a games file of schema 2 and one of schema 3 both hold (the
-- test builds each file's schema by running the migrations up to its
-- version, then puts in these rows and the version's own, games-v2.sql or
-- games-v3.sql). Taken from a file of schema 3 as awale wrote it (main at
-- 1bb46c1, before the migrations crate): `awale serve` on a new file, then
-- over HTTP an online public game with a clock (Ama south, Kofi north, two
-- moves, a chat line) and a game against level 2 resigned after one move
-- and reviewed; then `sqlite3 games.sqlite .dump`. Ama's cookie is 64
-- `a`s, Kofi's 64 `b`s (the ids are their hashes).
INSERT INTO games VALUES(1,1796167471663,1796167471787,'awale','4-4-4-4-4-4-4-4-4-4-4-4-0-0-S','online',NULL,NULL,-930580931338273312,300000,3000,300000,300000,1796167471787,NULL,'','*',NULL,NULL,1,'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','Ama','a0fab1377f49a759b57f63318262ebe89fabfc990e8e93ceac2984561482b9d4','Kofi',NULL,NULL,NULL,2);
INSERT INTO games VALUES(2,1796167471825,1796167471901,'awale','4-4-4-4-4-4-4-4-4-4-4-4-0-0-S','computer','S',2,-3967343542800569623,NULL,NULL,NULL,NULL,1796167471837,'S','','0-1','resignation',NULL,0,'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','',NULL,NULL,NULL,NULL,NULL,1);
INSERT INTO moves VALUES(1,0,'F',0);
INSERT INTO moves VALUES(1,1,'f',0);
INSERT INTO moves VALUES(2,0,'C',0);
INSERT INTO reviews VALUES(2,1,'{"id":2,"plies":[{"ply":0,"side":"S","move":"C","played":{"cp":-135,"decided":false,"plies_to_end":null,"text":"-1.35 seeds"},"best":{"move":"F","score":{"cp":-15,"decided":false,"plies_to_end":null,"text":"-0.15 seeds"}},"eval_south":-15,"loss":120,"mistake":false,"oracle":null}],"end":{"reason":"resignation","stores":[0,48],"winner":"N","loser_by":"S","result":"0-1"}}');
INSERT INTO chat VALUES(1,1,'players',1796167471795,'S','Ama','Bonne partie');
INSERT INTO players VALUES('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','Ama',1796167467237);
INSERT INTO players VALUES('a0fab1377f49a759b57f63318262ebe89fabfc990e8e93ceac2984561482b9d4','Kofi',1796167471727);
INSERT INTO meta VALUES('opened_ms',1796167465247);
INSERT INTO meta VALUES('alive_ms',1796167475266);
