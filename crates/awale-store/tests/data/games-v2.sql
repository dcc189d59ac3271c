-- A games file of schema 2's own rows, beside games-v2-v3.sql: before the
-- `levels` mark in `meta`, its game 3 is a game against Perfect, level 12
-- of the twelve levels then (two moves, still going on).
INSERT INTO games VALUES(3,1796167480000,1796167481000,'awale','4-4-4-4-4-4-4-4-4-4-4-4-0-0-S','computer','S',12,11,NULL,NULL,NULL,NULL,1796167481000,NULL,'','*',NULL,NULL,0,'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','',NULL,NULL,NULL,NULL,NULL,2);
INSERT INTO moves VALUES(3,0,'F',0);
INSERT INTO moves VALUES(3,1,'a',0);
