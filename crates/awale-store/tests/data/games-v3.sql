-- A games file of schema 3's own rows, beside games-v2-v3.sql (from the
-- same dump): game 3 uploaded from the browser under the key
-- `offline-0001`, and the `levels` mark.
INSERT INTO games VALUES(3,1760000000000,1796167471979,'awale','4-4-4-4-4-4-4-4-4-4-4-4-0-0-S','humans',NULL,NULL,-4907784428690380827,NULL,NULL,NULL,NULL,1796167471965,NULL,'','*',NULL,NULL,0,'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','','ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','',NULL,NULL,NULL,2);
INSERT INTO moves VALUES(3,0,'F',0);
INSERT INTO moves VALUES(3,1,'f',0);
INSERT INTO meta VALUES('levels',16);
INSERT INTO uploads VALUES('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb','offline-0001',3);
