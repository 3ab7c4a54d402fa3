-- Undo by consent and votes to pause or end a game. A move taken back stays in the log, marked: replays skip it.
ALTER TABLE actions ADD COLUMN undone_at TEXT COLLATE "C";  -- when the move was taken back; NULL while it stands

CREATE TABLE game_votes (
    id         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('undo', 'pause', 'resume', 'end')),
    user_id    BIGINT  NOT NULL,              -- who asked
    seq        INTEGER,                       -- undo: the action asked to be taken back
    version    INTEGER NOT NULL,              -- the game's version when asked
    channel_id BIGINT,                        -- the public message with the buttons
    message_id BIGINT,
    opened_at  TEXT    COLLATE "C" NOT NULL,
    closed_at  TEXT    COLLATE "C",
    outcome    TEXT    CHECK (outcome IN ('carried', 'refused', 'lapsed'))
);
CREATE INDEX game_votes_open ON game_votes (game_id) WHERE closed_at IS NULL;

CREATE TABLE game_ballots (
    vote_id BIGINT  NOT NULL REFERENCES game_votes (id) ON DELETE CASCADE,
    user_id BIGINT  NOT NULL,
    yes     INTEGER NOT NULL CHECK (yes IN (0, 1)),
    cast_at TEXT    COLLATE "C" NOT NULL,
    PRIMARY KEY (vote_id, user_id)
);

CREATE TABLE game_pauses (
    game_id   BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    paused_at TEXT   COLLATE "C" NOT NULL     -- a running game paused by vote: no moves, no turn timers
);
