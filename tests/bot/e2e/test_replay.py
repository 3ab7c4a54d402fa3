"""/replay through the local Discord: a finished game's animation (one frame per turn) and its JSON log, which the
engine replays to the stored final state; refusals (unknown id, another server's game, an unfinished game) are
private and say why."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.app import Conductor
from bot.sandbox import LocalDiscord
from bot.storage.games import GameRecord
from rules.history import engine_of, tell_log
from tests.bot.e2e.conftest import Running, table

OPTIONS = {"target": 10}
"""A short dice race, so the game ends in a few turns."""


async def finished_game(stand_in: LocalDiscord, bot: Conductor) -> GameRecord:
    """A short dice race between Ann and a bot player, played to its end."""
    players = table(stand_in, bot, "Ann")
    record = await players.open("dice", bots=1, options=OPTIONS)
    return await players.play_to_the_end(record.id, seed=3)


async def test_replay_posts_the_animation_and_a_log_that_replays_to_the_stored_state(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await finished_game(stand_in, bot)
        stored = await bot.service.store.get(record.id)
        assert stored is not None and stored.state is not None
        posted = await stand_in.slash("Ben", "replay", {"game": record.id})
        message = posted.message
        assert message is not None and not posted.ephemeral, "a finished game's replay is public"
        assert posted.interaction.answered  # in time: the stand-in refuses an answer past its 3-second ack_deadline
        files = {a.filename: a for a in message.attachments}
        assert set(files) == {f"replay-{record.id}.webp", f"game-{record.id}.json"}

        log = json.loads(files[f"game-{record.id}.json"].data)
        assert log["game"] == "dice" and log["seed"] == stored.seed and log["options"] == stored.options
        assert [s["name"] for s in log["seats"]] == ["Ann", "Stephenson"]
        actions = [(a["seat"], a["action"]) for a in log["actions"]]
        assert actions == await bot.service.store.actions(record.id)
        engine = engine_of(log["game"])
        rebuilt = engine.replay(engine.load_options(log["options"]), len(log["seats"]), log["seed"], actions)
        assert rebuilt.model_dump_json() == stored.state, "the log rebuilds the stored final state exactly"

        story = tell_log("dice", log["options"], len(log["seats"]), log["seed"], actions)
        with Image.open(io.BytesIO(files[f"replay-{record.id}.webp"].data)) as animation:
            assert animation.n_frames == len(story.turns), "the start, then one frame per turn"
        assert f"{len(story.turns) - 1} turns" in message.content
        assert files[f"replay-{record.id}.webp"].description


async def test_replay_refuses_unknown_foreign_and_unfinished_games_privately(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        record = await finished_game(stand_in, bot)
        unknown = await stand_in.slash("Ann", "replay", {"game": record.id + 100})
        assert unknown.ephemeral and unknown.text == f"There is no game #{record.id + 100}."

        players = table(stand_in, bot, "Cat")
        running_game = await players.open("dice", bots=1, options=OPTIONS)
        unfinished = await stand_in.slash("Cat", "replay", {"game": running_game.id})
        assert unfinished.ephemeral and "is not finished" in unfinished.text

        other_server = stand_in.add_guild("Elsewhere")
        there = stand_in.channel("trains", guild_id=other_server)
        elsewhere = await stand_in.slash("Ann", "replay", {"game": record.id}, channel=there)
        assert elsewhere.ephemeral and elsewhere.text == f"Game #{record.id} was not played on this server."
