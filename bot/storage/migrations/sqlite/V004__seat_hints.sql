-- How many hints (/hint) each seat was given, for the game's final sheet; seats stored before count none.
ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
