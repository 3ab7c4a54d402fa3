"""A free port on 127.0.0.1, for a server a test starts in a process of its own (which cannot be told to pick one)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on now (the probe that found it is closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
