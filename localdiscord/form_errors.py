"""Form errors collected by dotted path and answered in Discord's nested shape (code 50035)."""

from __future__ import annotations

from typing import Any

from localdiscord.models import Json

INVALID_FORM_BODY = "INVALID_FORM_BODY"


class Problems:
    """Collect form errors by dotted path, in the nested shape Discord answers with (code 50035)."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str, str]] = []

    def add(self, path: str, message: str, code: str = INVALID_FORM_BODY) -> None:
        """Record that the value at ``path`` breaks a rule (``code`` is Discord's name for the rule)."""
        self.items.append((path, message, code))

    def max_length(self, path: str, value: Any, limit: int) -> None:
        """Record a problem if the string ``value`` is longer than ``limit``."""
        if isinstance(value, str) and len(value) > limit:
            self.add(path, f"Must be {limit} or fewer in length.")

    def errors_json(self) -> Json:
        """Return the problems as Discord's nested ``errors`` object."""
        root: Json = {}
        for path, message, code in self.items:
            node = root
            for part in path.split("."):
                node = node.setdefault(part, {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def summary(self) -> str:
        """Return the problems as one readable line."""
        return "; ".join(f"{path}: {message}" for path, message, _ in self.items)
