-- Ratings and stats: each finished game's result per seat (written once, keyed on the game), each person's rating
-- per server and game family, and when a server's ratings were last reset (docs/ratings.md).
CREATE TABLE game_results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    family      TEXT    NOT NULL,             -- 'ttr' (both maps), 'cards', 'dice'
    user_id     INTEGER,                      -- NULL for a bot player
    left_user_id INTEGER,                     -- the person a bot player took this seat over from
    bot_kind    TEXT,                         -- NULL for a person
    name        TEXT    NOT NULL,             -- the seat's name when the game ended
    place       INTEGER NOT NULL,             -- 1 for every winner; tied places share a number
    score       INTEGER NOT NULL,
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    facts       TEXT    NOT NULL,             -- JSON of the family's per-game facts (longest trail, tickets, tracks…)
    finished_at TEXT    NOT NULL,             -- the final move's time: ratings are updated in this order
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (bot_kind IS NULL))
);
CREATE INDEX game_results_by_person ON game_results (guild_id, family, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX game_results_in_order ON game_results (guild_id, family, finished_at, game_id);

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    family     TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,              -- the name of the person's latest rated game
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,              -- mu - 3 sigma: what the leaderboard sorts by
    games      INTEGER NOT NULL,              -- rated games since the last reset
    wins       INTEGER NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, family, user_id)
);
CREATE INDEX ratings_by_ordinal ON ratings (guild_id, family, ordinal);

CREATE TABLE rating_resets (
    guild_id INTEGER PRIMARY KEY,
    reset_at TEXT    NOT NULL                 -- games finished before this count no more in the ratings
);

-- A seat a bot player took over from a person (they left, or timed out for good) remembers them: they are rated as
-- finishing below everyone who stayed (docs/ratings.md), so leaving never escapes a loss.
ALTER TABLE seats ADD COLUMN left_user_id INTEGER;
