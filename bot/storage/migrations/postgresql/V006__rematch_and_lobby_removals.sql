-- Which game a rematch lobby was opened from (one rematch per game: the second press points to the first), and
-- who the host removed from a lobby (they may not join it again unless the host invites them).
CREATE TABLE rematches (
    previous_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    game_id     BIGINT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE
);

CREATE TABLE lobby_removals (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- /history: the finished games of a server, newest first.
CREATE INDEX games_by_guild_updated ON games (guild_id, status, updated_at);
