-- Each shard's lease: a fencing number that every process taking the shard raises by one, checked by every write of
-- a game (PostgreSQL only: bot/storage/postgres.py). A SQLite file serves one process, kept out of it by its file
-- lock, so here the table stays empty; it exists so that both dialects define the same tables.
CREATE TABLE shard_leases (
    shard_count INTEGER NOT NULL,
    shard       INTEGER NOT NULL,
    fence       INTEGER NOT NULL,             -- 1 at the first taking, one more at each
    holder      TEXT    NOT NULL,             -- who took it last: host name and process id, for the operator
    taken_at    TEXT    NOT NULL,
    PRIMARY KEY (shard_count, shard)
);
