-- Version 7: games over days. A clock of "days per move" (correspondence)
-- gives a side its whole time again after each move on time; the other
-- clocks add their increment. Games stored before were all of the second
-- kind.
ALTER TABLE games ADD COLUMN clock_per_move INTEGER NOT NULL DEFAULT 0;
