"""Text the database can hold: services refuse, clearly, what a column would (PostgreSQL
refuses long text and NUL where SQLite keeps them)."""

from __future__ import annotations

import re

from django.db import models

from .errors import ServiceError

NUL = "\x00"

# A client-made id for a form or a tap (``{% new_nonce %}``, the table phone's queue).
NONCE = re.compile(r"[A-Za-z0-9_-]{8,64}")


def is_nonce(value) -> bool:
    """Whether ``value`` is a well-formed nonce (the whole string, no trailing newline)."""
    return isinstance(value, str) and NONCE.fullmatch(value) is not None


def text_check(value: str, *, label: str, max_length: int | None, field: str | None = None) -> str:
    """``value`` if a column of ``max_length`` holds it, else a ServiceError on ``field``."""
    if NUL in value:
        raise ServiceError(f"{label} cannot contain a NUL character.", "nul_character", field)
    if max_length is not None and len(value) > max_length:
        raise ServiceError(
            f"{label} is too long: at most {max_length} characters.", "too_long", field
        )
    return value


def column_check(model: type[models.Model], name: str, value: str, *, label: str) -> str:
    """``text_check`` against the model field ``name``, reported on the field ``name``."""
    max_length = model._meta.get_field(name).max_length
    return text_check(value, label=label, max_length=max_length, field=name)
