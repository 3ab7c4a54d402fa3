-- One open game per channel, enforced by the database; the version each game's channel shows; indexes for the
-- lookups by server, host, player and idle time.

-- An old race could leave several open games in one channel. Keep the newest (the one the bot already treated
-- as the channel's game) and close the older ones: a lobby is cancelled, a game in play abandoned. Their
-- version moves on, so buttons drawn for them are stale, and their turn timers go.
CREATE TEMP TABLE v003_closed AS
    SELECT id FROM games AS older
    WHERE older.status IN ('lobby', 'active')
      AND EXISTS (
          SELECT 1 FROM games AS newer
          WHERE newer.channel_id = older.channel_id
            AND newer.status IN ('lobby', 'active')
            AND newer.id > older.id
      );

UPDATE games
SET status = CASE status WHEN 'lobby' THEN 'cancelled' ELSE 'abandoned' END,
    version = version + 1,
    updated_at = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
WHERE id IN (SELECT id FROM v003_closed);

DELETE FROM turn_timers WHERE game_id IN (SELECT id FROM v003_closed);
DELETE FROM missed_turns WHERE game_id IN (SELECT id FROM v003_closed);
DROP TABLE v003_closed;

CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');

-- The newest version the channel shows (set after each successful public post or edit). Everything stored
-- before this migration counts as shown.
ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
UPDATE games SET shown_version = version;
CREATE INDEX games_unshown ON games (id) WHERE shown_version < version;

CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_host ON games (host_id, status);
DROP INDEX games_by_status;
CREATE INDEX games_by_status ON games (status, updated_at);
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
