-- Games as awale 0.1 (main at 4712cf4) wrote them, in its schema
-- (src/store/v1.sql, which the test runs first), with no application id.
-- Game 1 goes on (two people); game 2 was lost on time; game 3 is
-- against Perfect, level 12 of the twelve levels then.
INSERT INTO games VALUES (1, 1700000000000, 1700000100000, 'awale', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S',
    'humans', NULL, NULL, 42, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '', '*', NULL);
INSERT INTO games VALUES (2, 1700000000000, 1700000050000, 'awale', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S',
    'computer', 'S', 3, 7, 60000, 0, 1000, 60000, 1700000040000, NULL, 'S', '', '0-1', 'time');
INSERT INTO moves VALUES (1, 0, 'F', 0), (1, 1, 'f', 0), (1, 2, 'A', 0);
INSERT INTO moves VALUES (2, 0, 'F', 0);
INSERT INTO games VALUES (3, 1700000000000, 1700000060000, 'awale', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S',
    'computer', 'S', 12, 9, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '', '*', NULL);
INSERT INTO moves VALUES (3, 0, 'F', 0), (3, 1, 'a', 0);
