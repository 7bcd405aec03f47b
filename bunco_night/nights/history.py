"""A night's history: every change a host or co-host made to its money, seating, scores
or results, with who and when (docs/rules.md section 6.6), for the night page.

``record`` is called by the host's actions (``nights.actions``, ``play.actions``) inside
the transaction of the change itself: a change that is undone by an error leaves no line.
"""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Night, NightAction

Kind = NightAction.Kind


def record(*, night: Night | int, by, kind: str, text: str) -> NightAction:
    """Keep one line of ``night``'s history: ``by`` (a user, or None for the app itself)
    did ``text`` (said in words, as the host reads it)."""
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
