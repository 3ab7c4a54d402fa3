"""Every cache of drawn art in render/ (fonts, map layouts, static layers, sprites), to empty them at once.

A process starts with none of them; tests and benchmarks that measure a cold start empty them first.
"""

from __future__ import annotations

import sys


def clear_caches() -> None:
    """Empty the functools caches of every loaded render module."""
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
