-- The slash commands last synced to Discord, per application and scope: a start syncs only when they changed.
CREATE TABLE command_syncs (
    application_id BIGINT  NOT NULL,
    scope          TEXT    NOT NULL,          -- 'global', or the id of the one server the commands go to
    hash           TEXT    NOT NULL,          -- sha256 of what the sync sent (bot/command_sync.py)
    synced_at      TEXT    COLLATE "C" NOT NULL,
    PRIMARY KEY (application_id, scope)
);
