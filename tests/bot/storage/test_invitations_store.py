"""The invitation tables on both backends: a person is invited into a lobby once (again only when asked), declines,
and the inviters each person refuses on a server round trip, per server."""

from __future__ import annotations

from bot.storage.database import Database
from bot.storage.games import GameStore
from bot.storage.notifications import Invitation, NotificationStore, Refusals
from tests.bot.storage.test_timers_store import new_game

BIG_ID = 1_234_567_890_123_456_789
"""A Discord id: 64 bits wide, as PostgreSQL's BIGINT must keep it."""


async def test_a_person_is_invited_into_a_lobby_once_unless_invited_again_and_may_decline(database: Database) -> None:
    games, store = GameStore(database), NotificationStore(database)
    lobby, other = await new_game(games, channel=5, user=7), await new_game(games, channel=6, user=7)
    assert await store.invite(Invitation(lobby, BIG_ID, 7))
    assert not await store.invite(Invitation(lobby, BIG_ID, 8)), "a second invitation records nothing"
    assert await store.invite(Invitation(lobby, 9, 8))
    assert await store.invite(Invitation(other, BIG_ID, 8)), "another lobby is another invitation"
    assert await store.invitations(lobby) == [Invitation(lobby, 9, 8), Invitation(lobby, BIG_ID, 7)]

    assert await store.decline(lobby, BIG_ID) == Invitation(lobby, BIG_ID, 7, declined=True)
    assert await store.decline(lobby, 10) is None, "nobody invited 10"
    assert await store.invitations(other) == [Invitation(other, BIG_ID, 8)]
    assert await store.invite(Invitation(lobby, BIG_ID, 8), again=True)
    assert (await store.invitations(lobby))[1] == Invitation(lobby, BIG_ID, 8), "invited anew: declined no more"


async def test_refused_inviters_round_trip_per_server_and_are_replaced(database: Database) -> None:
    store = NotificationStore(database)
    assert await store.refusals(1, BIG_ID) == Refusals()
    await store.put_refusals(1, BIG_ID, Refusals(inviters=frozenset({7, BIG_ID - 1})))
    await store.put_refusals(2, BIG_ID, Refusals(everyone=True))
    assert await store.refusals(1, BIG_ID) == Refusals(inviters=frozenset({7, BIG_ID - 1}))
    assert await store.refusals(2, BIG_ID) == Refusals(everyone=True)
    assert await store.refusals(1, 7) == Refusals(), "one person's refusals are theirs only"
    await store.put_refusals(1, BIG_ID, Refusals(everyone=True, inviters=frozenset({8})))
    refusals = await store.refusals(1, BIG_ID)
    assert refusals == Refusals(everyone=True, inviters=frozenset({8}))
    assert refusals.refuses(9) and Refusals(inviters=frozenset({8})).refuses(8)
    assert not Refusals(inviters=frozenset({8})).refuses(9)
    await store.put_refusals(1, BIG_ID, Refusals())
    assert await store.refusals(1, BIG_ID) == Refusals()
