-- Per-game settings fixed when a game opens, the thread a game lives in, turn timers and missed turns.
CREATE TABLE game_policies (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data    TEXT    NOT NULL                  -- JSON: the turn timer policy in force for this game
);

CREATE TABLE game_threads (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    thread_id INTEGER NOT NULL,               -- the thread the game is played in (games.channel_id)
    parent_id INTEGER NOT NULL                -- the channel /newgame was typed in
);
CREATE INDEX game_threads_by_parent ON game_threads (parent_id);

CREATE TABLE turn_timers (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    stage      TEXT    NOT NULL CHECK (stage IN ('reminder', 'timeout', 'paused')),
    started_at REAL    NOT NULL,              -- seconds since the epoch (the bot's clock) when the wait began
    due_at     REAL    NOT NULL,              -- when this stage fires
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX turn_timers_by_due ON turn_timers (due_at);

CREATE TABLE missed_turns (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    missed  INTEGER NOT NULL,                 -- turns in a row that timed out; reset when the player acts
    PRIMARY KEY (game_id, seat)
);
