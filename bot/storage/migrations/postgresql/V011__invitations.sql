-- Invitations people control: each person invited into a lobby (once per lobby, a few per lobby; they may decline),
-- and whose invitations each person refuses on a server (/notify): refused invitations are never posted.
CREATE TABLE lobby_invitations (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,             -- who was invited (pinged once)
    inviter_id  BIGINT  NOT NULL,             -- who invited them (a rematch's host for a rematch)
    invited_at  TEXT    COLLATE "C" NOT NULL,
    declined_at TEXT    COLLATE "C",          -- when they pressed Decline; NULL while they did not
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE invitation_refusals (
    guild_id   BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,              -- who refuses
    inviter_id BIGINT  NOT NULL,              -- whose invitations they refuse there; 0: everyone's
    PRIMARY KEY (guild_id, user_id, inviter_id)
);
