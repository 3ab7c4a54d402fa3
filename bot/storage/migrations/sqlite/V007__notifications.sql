-- Turn notifications (/notify): each person's choices, the DM each waited-for person is due, and /watch.
CREATE TABLE notify_prefs (
    user_id       INTEGER PRIMARY KEY,
    dm            INTEGER NOT NULL CHECK (dm IN (0, 1)),          -- a DM when the person's turn starts
    delay_minutes INTEGER NOT NULL,                               -- 0: at once; else only if still waited for then
    ping          INTEGER NOT NULL CHECK (ping IN (0, 1)),        -- pinged in the channel when their turn starts
    language      TEXT    NOT NULL,                               -- of the DMs: the person's when they chose
    dms_closed    INTEGER NOT NULL CHECK (dms_closed IN (0, 1)),  -- Discord refused a DM (50007): none are tried
    closed_told   INTEGER NOT NULL CHECK (closed_told IN (0, 1))  -- and the person was told so, privately
);

CREATE TABLE notify_waits (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    due_at  REAL, -- when its DM goes (the bot's clock); NULL: sent, or none due (acting on)
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX notify_waits_by_due ON notify_waits (due_at);

CREATE TABLE game_watchers (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    language TEXT    NOT NULL,                     -- of the DM that says the game ended
    PRIMARY KEY (game_id, user_id)
);
