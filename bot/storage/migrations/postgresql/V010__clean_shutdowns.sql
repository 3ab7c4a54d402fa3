-- When each shard's process last stopped cleanly: at the next start only the games written since then are checked
-- against their logs (a crash can have left only those half written).
CREATE TABLE clean_shutdowns (
    shard_count INTEGER NOT NULL,
    shard       INTEGER NOT NULL,
    stopped_at  TEXT    COLLATE "C" NOT NULL, -- every game's write before this is known to be whole
    PRIMARY KEY (shard_count, shard)
);
