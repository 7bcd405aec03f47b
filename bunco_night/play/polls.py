"""The quick answer to a phone's poll when nothing changed, or when its answer is kept.

Every table phone and every player's page polls its state every few seconds, and most
polls find nothing new. ``UnchangedPollMiddleware`` answers those with an empty 204
before sessions, authentication, CSRF, messages and URL resolving run: one query on
the link's unique token, no template. A table's poll that finds a new version gets the
board kept at that version, if one is (``boards.py``): one query more. Anything else (a
malformed ``v``, an unknown link, no kept board, another method) goes on to the views
in ``views.py``, which answer as they always do, so the middleware only ever gives an
answer the view would give.

Nothing is kept between requests but the SQL text and the code's fingerprint
(``boards.build``): the version comes from the database on every poll, so several
gunicorn processes, or several machines behind a load balancer sharing PostgreSQL, stay
correct.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass

from django.db import Error, connection
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import get_script_prefix, reverse

from bunco_night.core.compiled import Compiled
from bunco_night.nights.models import Attendance, Table

from .boards import build
from .models import Board

log = logging.getLogger(__name__)

# What ``new_token`` makes (url-safe base64): anything else is not a link of ours.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,43}")

# A poll's answer is only true for the moment it is given; nothing on the way (a proxy,
# the browser) may keep it and give it again.
NO_STORE = "no-store"


@dataclass(frozen=True)
class PollRoute:
    """A poll URL (``prefix`` + token + ``suffix``), the query that reads its version,
    and the one that reads the answer kept at a version (``boards.py``), if any."""

    prefix: str
    suffix: str
    query: Compiled
    kept: Compiled | None = None

    def token(self, path: str) -> str | None:
        """The token in ``path`` if it is this poll's URL (any text but a slash)."""
        if path.startswith(self.prefix) and path.endswith(self.suffix):
            token = path[len(self.prefix) : len(path) - len(self.suffix)]
            if token and "/" not in token:
                return token
        return None


def _route(url_name: str, queryset, kept=None) -> PollRoute:
    """``queryset`` and ``kept`` (version, build and text kept) filtered on the link's token
    by ``token=`` and ``table__token=``."""
    marker = "TOKEN"
    # reverse() includes the script prefix; request.path_info does not.
    path = "/" + reverse(url_name, args=[marker])[len(get_script_prefix()) :]
    prefix, _, suffix = path.partition(marker)
    version = Compiled(lambda token: queryset.filter(token=token).order_by(), marker)
    kept_query = None
    if kept is not None:
        kept_query = Compiled(lambda token: kept.filter(table__token=token).order_by(), marker)
    return PollRoute(prefix, suffix, version, kept_query)


@functools.cache
def poll_routes() -> tuple[PollRoute, ...]:
    """The polls answered here, with the same version strings as the views' ``_unchanged``:
    a table's is "night version.table version", a player's the night's version."""
    return (
        _route(
            "play:table_state",
            Table.objects.values_list("night__version", "version"),
            kept=Board.objects.values_list("version", "build", "html"),
        ),
        _route("play:player_state", Attendance.objects.values_list("night__version")),
    )


def current_version(route: PollRoute, token: str) -> str | None:
    """The version a poll of ``token`` would be told now, or None for an unknown token.

    The poll's own query is its connection's health check: Django's (CONN_HEALTH_CHECKS)
    asks the database ``SELECT 1`` before a request's first query, which on PostgreSQL
    costs as much as the poll's query itself. Where the connection has gone (a database
    restart, an idle connection dropped), the read fails; the connection is closed and
    the read asked once more on a new one, as the health check would have done.
    """
    if connection.connection is not None:
        connection.health_check_done = True
    try:
        row = route.query.first_row(token)
    except Error as error:  # django.db's: a lost connection is an OperationalError or
        if connection.in_atomic_block:  # an InterfaceError, as the driver finds it
            raise
        log.warning("A poll's query failed (%s); asking again on a new connection.", error)
        connection.close()
        row = route.query.first_row(token)
    return None if row is None else ".".join(map(str, row))


def kept_answer(route: PollRoute, token: str, current: str | None) -> str | None:
    """The answer kept for ``token``'s poll if it was kept at ``current``, the version
    now, by this code (``boards.py`` says why that answer is the one the view would give)."""
    if route.kept is None or current is None:
        return None
    row = route.kept.first_row(token)
    return row[2] if row is not None and row[:2] == (current, build()) else None


class UnchangedPollMiddleware:
    """Answer ``GET /t/<token>/state/?v=...`` and ``GET /p/<token>/state/?v=...`` with 204
    when ``v`` is the current version, a table's with its kept board when that is at the
    current version; let every other request through.

    Placed early in ``MIDDLEWARE``: what runs before it runs for every poll.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "GET":
            return self.get_response(request)
        path = request.path_info
        for route in poll_routes():
            token = route.token(path)
            if token is None:
                continue
            if not TOKEN.fullmatch(token):
                # Not a link of ours whatever it says, and not for the database to read
                # (PostgreSQL refuses a NUL in text): the site's 404, as for an unknown link.
                raise Http404("No such link.")
            seen = request.GET.get("v")
            if seen:
                current = current_version(route, token)
                if seen == current:
                    return HttpResponse(status=204, headers={"Cache-Control": NO_STORE})
                # Only to htmx, which swaps it into the page: the headers the middleware
                # after this one add (CSP, framing) are the page's, not a fragment's.
                htmx = request.headers.get("HX-Request") == "true"
                kept = kept_answer(route, token, current) if htmx else None
                if kept is not None:
                    return HttpResponse(kept, headers={"Cache-Control": NO_STORE})
            response = self.get_response(request)
            response.headers.setdefault("Cache-Control", NO_STORE)
            return response
        return self.get_response(request)
