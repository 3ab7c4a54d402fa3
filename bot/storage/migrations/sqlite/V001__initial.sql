-- Games, their seats, the append-only action log, and the messages each game owns.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    data       TEXT    NOT NULL,              -- JSON of the server's choices
    updated_at TEXT    NOT NULL
);

CREATE TABLE games (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game       TEXT    NOT NULL,              -- engine id, e.g. "dice"
    guild_id   INTEGER,
    channel_id INTEGER NOT NULL,
    host_id    INTEGER NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    options    TEXT    NOT NULL,              -- JSON of the engine's options
    seed       INTEGER NOT NULL,
    version    INTEGER NOT NULL DEFAULT 0,    -- bumps on every accepted change; components carry it
    state      TEXT,                          -- snapshot JSON once started
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,                         -- NULL for a bot player
    bot_kind TEXT,                            -- NULL for a person
    name     TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (bot_kind IS NULL))
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,              -- 1, 2, 3 … in the order applied
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,              -- the engine's encoded action
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE game_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,              -- 'lobby', 'turn', …
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);
