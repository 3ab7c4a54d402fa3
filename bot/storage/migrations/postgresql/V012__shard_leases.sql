-- Each shard's lease: a fencing number that every process taking the shard raises by one (bot/storage/postgres.py,
-- `hold`). Every write of a game checks, in its own transaction, that its process's number is still the shard's, so
-- a process that lost its lease (its connection dropped, another process took the shard) cannot write.
CREATE TABLE shard_leases (
    shard_count INTEGER NOT NULL,
    shard       INTEGER NOT NULL,
    fence       BIGINT  NOT NULL,             -- 1 at the first taking, one more at each
    holder      TEXT    NOT NULL,             -- who took it last: host name and process id, for the operator
    taken_at    TEXT    COLLATE "C" NOT NULL,
    PRIMARY KEY (shard_count, shard)
);
