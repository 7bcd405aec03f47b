"""A player's own page (a secret link, no login) and its poll (204 when unchanged)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST, require_safe

from bunco_night.nights.models import Attendance

from . import player_pages, services
from .views import _clock_answer, _no_change, _unchanged, how_to_play_page


def _attendance(token: str) -> Attendance:
    return get_object_or_404(
        Attendance.objects.select_related("night__group", "player", "substitute"), token=token
    )


@never_cache
@require_safe
def player_page(request: HttpRequest, token: str) -> HttpResponse:
    """A player's card round by round, and where to sit now or next."""
    attendance = _attendance(token)
    services.round_clock(night=attendance.night)
    page = player_pages.player_page(attendance)
    return render(request, "play/player.html", {"page": page, "token": token})


@never_cache
@require_GET
def player_state(request: HttpRequest, token: str) -> HttpResponse:
    """Poll: 204 when nothing changed, else the card fragment."""
    attendance = _attendance(token)
    if _unchanged(request, (attendance.night.version,)):
        return _no_change()
    page = player_pages.player_page(attendance)
    return render(request, "play/player.html#card", {"page": page, "token": token})


@require_safe
def player_rules(request: HttpRequest, token: str) -> HttpResponse:
    """How do we play? From a player's own link."""
    attendance = _attendance(token)
    return how_to_play_page(request, attendance.night, reverse("play:player", args=[token]))


@csrf_exempt
@require_POST
def player_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The player's countdown reached zero: the server's clock decides."""
    return _clock_answer(_attendance(token).night)
