"""The one check shared by answers, the asking of substitutes and invitations: they
change who comes only while the night is being planned (docs/rules.md section 8.8)."""

from __future__ import annotations

from bunco_night.core.errors import ServiceError
from bunco_night.nights.models import Night


def _check_planning(night: Night) -> None:
    if night.is_over:
        raise ServiceError("This night is over.", "night_over")
    if night.status != Night.Status.PLANNING:
        raise ServiceError(
            "The night has started: the host changes who plays on the night page.",
            "night_started",
        )
