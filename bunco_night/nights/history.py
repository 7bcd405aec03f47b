"""A night's history (docs/rules.md section 6.6); ``record`` is called in the change's
transaction."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Night, NightAction

Kind = NightAction.Kind


def record(*, night: Night | int, by, kind: str, text: str) -> NightAction:
    """Keep one line of ``night``'s history: ``by`` (None: the app) did ``text``."""
    night_id = night if isinstance(night, int) else night.pk
    user = by if getattr(by, "is_authenticated", False) else None
    return NightAction.objects.create(
        night_id=night_id,
        by=user,
        by_name=user.get_username() if user is not None else "",
        kind=kind,
        text=text[:500],
    )


def night_history(night: Night, *, limit: int = 500) -> QuerySet[NightAction]:
    """The night's history, newest first (at most ``limit`` lines)."""
    return night.actions.order_by("-at", "-pk")[:limit]
