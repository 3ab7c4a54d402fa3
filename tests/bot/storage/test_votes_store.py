"""Undo and votes on both backends: a move taken back stays stored but leaves the live log; votes, ballots, pauses."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.storage.games import GameRecord, GameStore, SeatRecord, StaleVersion
from bot.storage.votes import VoteStore


async def running_game(games: GameStore) -> GameRecord:
    """A started two-person game with two moves in its log."""
    record = await games.create_game(
        game="dice",
        guild_id=1,
        channel_id=5,
        host_id=7,
        options={},
        seed=1,
        seats=[SeatRecord(seat=0, name="Ann", user_id=7), SeatRecord(seat=1, name="Ben", user_id=8)],
    )
    record = await games.start(record, record.seats, '{"move": 0}')
    record = await games.record_action(record, 0, "add:E", '{"move": 1}', finished=False, seq=1)
    return await games.record_action(record, 0, "add:C", '{"move": 2}', finished=False, seq=2)


async def test_a_move_taken_back_stays_stored_marked_and_leaves_the_live_log(database: Database) -> None:
    games = GameStore(database)
    record = await running_game(games)
    assert await games.last_action(record.id) == (2, 0, "add:C")

    with pytest.raises(StaleVersion):
        await games.rewind(GameRecord(**{**record.__dict__, "version": record.version - 1}), 2, '{"move": 1}')
    rewound = await games.rewind(record, 2, '{"move": 1}')
    assert rewound.version == record.version + 1 and rewound.state == '{"move": 1}'
    assert await games.actions(record.id) == [(0, "add:E")]
    assert await games.actions(record.id, upto=2) == [(0, "add:E")]
    assert await games.last_action(record.id) == (1, 0, "add:E")
    assert await games.action_counts(record.id) == {record.id: 2}, "the next move is number 3"
    stored = await games.get(record.id)
    assert stored is not None and stored.state == '{"move": 1}' and stored.version == rewound.version

    again = await games.record_action(rewound, 0, "add:T", '{"move": 2}', finished=False, seq=3)
    assert await games.actions(record.id) == [(0, "add:E"), (0, "add:T")]
    rows = await database.fetch("SELECT seq, undone_at FROM actions WHERE game_id = ? ORDER BY seq", (record.id,))
    assert [(row["seq"], row["undone_at"] is not None) for row in rows] == [(1, False), (2, True), (3, False)]
    assert again.version == rewound.version + 1


async def test_votes_ballots_and_pauses_round_trip(database: Database) -> None:
    games = GameStore(database)
    votes = VoteStore(database)
    record = await running_game(games)
    undo = await votes.open(record.id, "undo", 7, record.version, seq=2)
    pause = await votes.open(record.id, "pause", 8, record.version)
    await votes.shown_at(undo.id, 5, 99)
    await votes.cast(undo.id, 8, False)
    await votes.cast(undo.id, 8, True)  # a second answer replaces the first
    await votes.close(undo.id, "carried")
    await votes.close(undo.id, "refused")  # closed once only
    await database.write(votes.pause_statements(record.id, True))
    await database.write(votes.pause_statements(record.id, True))
    assert await votes.paused() == {record.id}

    found = await votes.votes(record.id)
    assert [(v.kind, v.seq, outcome, ballots) for v, outcome, ballots in found] == [
        ("undo", 2, "carried", {7: True, 8: True}),
        ("pause", None, None, {8: True}),
    ]
    await votes.lapse_open()
    assert [outcome for _, outcome, _ in await votes.votes(record.id)] == ["carried", "lapsed"]
    assert pause.id != undo.id

    await database.write(votes.pause_statements(record.id, False))
    assert await votes.paused() == set()


async def test_the_last_refused_or_lapsed_vote_of_a_kind_is_found_per_person(database: Database) -> None:
    games = GameStore(database)
    votes = VoteStore(database)
    record = await running_game(games)
    assert await votes.last_failed(record.id, 7, "end") is None
    carried = await votes.open(record.id, "end", 7, record.version)
    await votes.close(carried.id, "carried")
    assert await votes.last_failed(record.id, 7, "end") is None, "a carried vote asks for no patience"
    for outcome in ("refused", "lapsed"):
        vote = await votes.open(record.id, "end", 7, record.version)
        await votes.close(vote.id, outcome)  # type: ignore[arg-type]
    closed = await database.fetch("SELECT closed_at FROM game_votes WHERE id = ?", (vote.id,))
    assert await votes.last_failed(record.id, 7, "end") == closed[0]["closed_at"]
    assert await votes.last_failed(record.id, 8, "end") is None
    assert await votes.last_failed(record.id, 7, "pause") is None
