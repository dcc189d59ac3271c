-- Version 19: whether a tournament lets bots join, as its organiser
-- chose at its making (0: people only, the tournaments made before).
ALTER TABLE tournaments ADD COLUMN bots_allowed INTEGER NOT NULL DEFAULT 0;
