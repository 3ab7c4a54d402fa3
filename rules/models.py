"""Building the engines' frozen pydantic models without validating them again: the hot path of every move.

Only for values an engine built itself and knows valid; anything read from outside goes through validation.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound=BaseModel)


@cache
def _fields_set(cls: type[BaseModel]) -> set[str]:
    """All field names of a model, shared by every instance built here (pydantic copies it before changing it)."""
    return set(cls.model_fields)


_new = object.__new__
_set_dict = object.__setattr__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
"""pydantic's slots, set straight through their descriptors: half the cost of `object.__setattr__` by name."""


def build_unchecked(cls: type[ModelT], values: dict[str, Any]) -> ModelT:
    """Make a model from values known to be valid and complete, skipping validation.

    This is what pydantic's `model_construct` does, minus its per-field default and alias bookkeeping.
    """
    model = _new(cls)
    _set_dict(model, "__dict__", values)
    _set_fields(model, _fields_set(cls))
    _set_extra(model, None)
    _set_private(model, None)
    return model


def evolve(model: ModelT, changes: dict[str, Any]) -> ModelT:
    """Return `model` with these fields replaced and the others shared: pydantic's `model_copy(update=)` for the hot
    path (no copy of the fields set, no private or extra bookkeeping)."""
    values = model.__dict__.copy()
    values.update(changes)
    return build_unchecked(type(model), values)
