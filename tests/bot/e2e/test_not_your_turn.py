"""A move out of turn, in every game, is refused privately with whose turn it is, in the refused person's language."""

from __future__ import annotations

from localdiscord import LocalDiscord
from tests.bot.e2e.helpers import Running, controls, people, playing


async def test_a_roll_out_of_turn_in_the_dice_game_names_the_player_to_roll(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        _, game_id = await playing(stand_in, bot, "dice", ("Ann", "Dan"), 3)
        current = min(bot.service.engine("dice").to_act(bot.service.state(game_id)))
        mover, waiting = people(stand_in, "Ann", "Dan")[current], people(stand_in, "Ann", "Dan")[1 - current]
        refused = await stand_in.slash(waiting, "roll")
        expected = {
            "Ann": f"It is not your turn: it is {mover.name}'s.",
            "Dan": f"Сейчас не ваш ход: ходит {mover.name}.",
        }
        assert refused.ephemeral and refused.text == expected[waiting.name]


async def test_a_draw_out_of_turn_in_the_card_game_names_the_player_to_draw(
    stand_in: LocalDiscord, running: Running
) -> None:
    async with running() as bot:
        players, game_id = await playing(stand_in, bot, "ticket-to-ride-cards", ("Ann", "Ben"), 3)
        message = await players.turn_message(game_id)
        current = min(bot.service.engine("ticket-to-ride-cards").to_act(bot.service.state(game_id)))
        mover, waiting = people(stand_in, "Ann", "Ben")[current], people(stand_in, "Ann", "Ben")[1 - current]
        refused = await stand_in.click(waiting, message, controls(message)["act:draw:deck"]["custom_id"])
        assert refused.ephemeral and refused.text == f"It is not your turn: it is {mover.name}'s."
