"""What the bot counts for its operator, in Prometheus' terms (served at `/metrics` by bot/web/ops.py).

Each bot counts into a registry of its own (`Metrics`), so several bots in one process (the tests) never mix their
counts; a part built outside a bot (a test of one service, a bench) counts into `UNCOUNTED`, which nobody reads. The
picture and thinking workers serve every bot of the process, so what they count is counted once for the process and
shown by each bot. This module imports nothing of the bot, so every layer, the storage too, may record into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

ACKNOWLEDGEMENT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
"""Seconds: Discord refuses an acknowledgement later than 3 s after the interaction was created."""
WORK_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Seconds of a picture or a thought, from asked to answered: a hand takes milliseconds, a replay seconds."""
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
"""Seconds of a call to the store: a read in well under a millisecond, a write waiting on a lock up to its 5 s."""

Reading = Callable[[], Iterable[Metric]]
"""A function that reads metric families from the bot's state when they are asked for (a scrape)."""

PICTURE_SECONDS = Histogram(
    "conductor_picture_seconds",
    "Pictures drawn, by worker pool: seconds from asked to drawn (waiting for the worker included).",
    ["pool"],
    buckets=WORK_BUCKETS,
    registry=None,
)
PICTURES_WAITING = Gauge(
    "conductor_pictures_waiting",
    "Pictures asked for and not drawn yet, by worker pool (waiting for their worker, or being drawn).",
    ["pool"],
    registry=None,
)
THINKING_SECONDS = Histogram(
    "conductor_thinking_seconds",
    "Thoughts of the thinking workers (a bot player's move, a hint): seconds from asked to answered.",
    ["kind"],
    buckets=WORK_BUCKETS,
    registry=None,
)
PROCESS_WIDE: tuple[Collector, ...] = (PICTURE_SECONDS, PICTURES_WAITING, THINKING_SECONDS)
"""What the process's workers count, whichever bot asked: in no registry of their own, shown by each bot's."""


class Metrics:
    """One bot's counts and timings, in its own registry; `watch` adds what is read from the bot when scraped."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "conductor_interactions",
            "Interactions (commands, clicks) by kind and result: ok, refused (stopping, too fast, wrong place),"
            " busy (the store) or failed.",
            ["kind", "result"],
            registry=self.registry,
        )
        self.acknowledgements = Histogram(
            "conductor_acknowledgement_seconds",
            "Seconds from an interaction's creation (its id's time) to the bot's first answer to Discord.",
            buckets=ACKNOWLEDGEMENT_BUCKETS,
            registry=self.registry,
        )
        self.moves = Counter("conductor_moves", "Moves applied and stored, by game.", ["game"], registry=self.registry)
        self.store_calls = Histogram(
            "conductor_store_seconds",
            "Seconds of the store's calls, by kind: read, or write (a whole transaction, waiting for its lock too).",
            ["kind"],
            buckets=STORE_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_Collected(lambda: [m for shared in PROCESS_WIDE for m in shared.collect()]))

    def interaction(self, kind: str, result: str) -> None:
        """Count an interaction of this kind (`discord.InteractionType`'s name) and its result."""
        self.interactions.labels(kind, result).inc()

    def acknowledged(self, seconds: float) -> None:
        """Count an interaction's first answer, `seconds` after it was created."""
        self.acknowledgements.observe(max(0.0, seconds))

    def moved(self, game: str) -> None:
        """Count a move of a game of this kind, stored."""
        self.moves.labels(game).inc()

    def store_call(self, kind: str) -> AbstractContextManager[object]:
        """Time a call to the store (`read` or `write`) for the body of a `with`."""
        return self.store_calls.labels(kind).time()

    def watch(self, read: Reading) -> None:
        """Have `read()` give metrics from the bot's state each time the registry is collected (a scrape)."""
        self.registry.register(_Collected(read))


class _Collected(Collector):
    """A collector that asks a function for its metrics on each collection."""

    def __init__(self, read: Reading) -> None:
        self._read = read

    def collect(self) -> Iterable[Metric]:
        return self._read()


UNCOUNTED = Metrics()
"""The metrics of parts built outside a bot (tests of one part, benches, the command line): counted, never read."""
