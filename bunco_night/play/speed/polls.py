"""The quick answer to a phone's poll when nothing changed, or when its answer is kept.

``UnchangedPollMiddleware`` answers an unchanged poll with an empty 204 before sessions,
authentication, CSRF, messages and URL resolving, from one query on the link's token at
most (on PostgreSQL, often none: ``listening.py``); a table's poll that finds a new version
gets its kept board (``boards.py``). Anything else goes on to the views: it only ever gives
an answer a view would give. ``QuickPolls`` (``wsgi.py``) answers before Django the polls
memory knows unchanged. Why: docs/architecture.md, The path of a poll, Design notes."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.urls import get_script_prefix, reverse

from bunco_night.core.speed.compiled import Compiled, as_health_check
from bunco_night.nights.models import Attendance, Table

from .boards import build
from .listening import Heard, heard

# What ``new_token`` makes (url-safe base64): anything else is not a link of ours.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,43}")

# A poll's answer is only true for the moment it is given; nothing on the way (a proxy,
# the browser) may keep it and give it again.
NO_STORE = "no-store"

# Set in the request's environ by ``UnchangedPollMiddleware`` on a poll it answered as
# unchanged, for ``QuickPolls``.
ANSWERED_UNCHANGED = "bunco_night.unchanged_poll"


@dataclass(frozen=True)
class PollRoute:
    """A poll URL (``prefix`` + token + ``suffix``) and the one query that reads, by the
    link's token, its version's ``width`` columns, then the ids of the rows they come from
    (named by ``rows``' letters as ``listening.py``'s notifications name them), then for a
    table the board kept for it (``boards.py``): its version, build and text."""

    prefix: str
    suffix: str
    query: Compiled
    width: int
    rows: tuple[str, ...]

    def token(self, path: str) -> str | None:
        """The token in ``path`` if it is this poll's URL (any text but a slash)."""
        if path.startswith(self.prefix) and path.endswith(self.suffix):
            token = path[len(self.prefix) : len(path) - len(self.suffix)]
            if token and "/" not in token:
                return token
        return None


def _route(url_name: str, queryset, width: int, rows: tuple[str, ...]) -> PollRoute:
    """``queryset`` filtered on the link's token (``token=``)."""
    marker = "TOKEN"
    # reverse() includes the script prefix; request.path_info does not.
    path = "/" + reverse(url_name, args=[marker])[len(get_script_prefix()) :]
    prefix, _, suffix = path.partition(marker)
    query = Compiled(lambda token: queryset.filter(token=token).order_by(), marker)
    return PollRoute(prefix, suffix, query, width, rows)


@functools.cache
def poll_routes() -> tuple[PollRoute, ...]:
    """The polls answered here, with the same version strings as the views' ``_unchanged``:
    a table's is "night version.table version", a player's the night's version."""
    return (
        _route(
            "play:table_state",
            Table.objects.values_list(
                "night__version",
                "version",
                "night_id",
                "id",
                "kept_board__version",
                "kept_board__build",
                "kept_board__html",
            ),
            2,
            ("n", "t"),
        ),
        _route(
            "play:player_state",
            Attendance.objects.values_list("night__version", "night_id", "id"),
            1,
            ("n", "a"),
        ),
    )


@dataclass(frozen=True)
class PollState:
    """What a poll of a token would be told now: its version (None: no such link), and
    for a table the board kept at that version by this code, if one is."""

    version: str | None
    kept: str | None = None


def poll_state(route: PollRoute, token: str, memory: Heard | None) -> PollState:
    """``token``'s poll as the database has it now, in one query (kept in ``memory``, this
    process's, for the next polls, where it listens).

    The poll's own query is its connection's health check (``as_health_check``).
    """
    epoch = memory.epoch if memory is not None else 0
    row = as_health_check(lambda: route.query.first_row(token))
    if row is None:
        return PollState(None)
    width, ids = route.width, len(route.rows)
    version = ".".join(map(str, row[:width]))
    if memory is not None:
        rows = tuple(
            f"{letter}{pk}" for letter, pk in zip(route.rows, row[width : width + ids], strict=True)
        )
        memory.keep((route.prefix, token), version, rows, epoch)
    kept = row[width + ids :]
    # A kept board is the answer only at the version now, drawn by this code.
    if kept and kept[0] == version and kept[1] == build():
        return PollState(version, kept[2])
    return PollState(version)


class UnchangedPollMiddleware:
    """Answer ``GET /t/<token>/state/?v=...`` and ``GET /p/<token>/state/?v=...`` with 204
    when ``v`` is the current version, a table's with its kept board when that is at the
    current version; let every other request through.

    Placed early in ``MIDDLEWARE``: what runs before it runs for every poll.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        poll = _poll_of(request.path_info) if request.method == "GET" else None
        if poll is None:
            return self.get_response(request)
        route, token = poll
        if not TOKEN.fullmatch(token):
            # Not a link of ours whatever it says, and not for the database to read
            # (PostgreSQL refuses a NUL in text): the site's 404, as for an unknown link.
            raise Http404("No such link.")
        seen = request.GET.get("v")
        if seen:
            if _known_unchanged(route, token, seen):
                return _unchanged(request)
            now = poll_state(route, token, heard())
            if seen == now.version:
                return _unchanged(request)
            # Only to htmx, which swaps it into the page: the headers the middleware
            # after this one add (CSP, framing) are the page's, not a fragment's.
            if now.kept is not None and request.headers.get("HX-Request") == "true":
                return HttpResponse(now.kept, headers={"Cache-Control": NO_STORE})
        response = self.get_response(request)
        response.headers.setdefault("Cache-Control", NO_STORE)
        return response


def _poll_of(path: str) -> tuple[PollRoute, str] | None:
    """The poll whose URL ``path`` is, with the token in it (any text but a slash)."""
    for route in poll_routes():
        token = route.token(path)
        if token is not None:
            return route, token
    return None


def _known_unchanged(route: PollRoute, token: str, seen: str | None) -> bool:
    """Whether ``seen`` is the version of ``token``'s poll kept in this process where it
    listens for changes (``listening.py``), and none was heard since its last read."""
    memory = heard()
    return bool(seen) and memory is not None and memory.version((route.prefix, token)) == seen


def _unchanged(request: HttpRequest) -> HttpResponse:
    """The answer to a poll of the current version: empty, and marked for ``QuickPolls``."""
    request.META[ANSWERED_UNCHANGED] = True
    return HttpResponse(status=204, headers={"Cache-Control": NO_STORE})


class QuickPolls:
    """Around Django's WSGI application (``wsgi.py``): a poll that this process's memory
    knows unchanged (on PostgreSQL, ``listening.py``) gets the empty 204 with the headers
    Django gave the last such poll of its kind and scheme (``UnchangedPollMiddleware``).
    Until Django has answered one, and for any other request, Django answers. Django's
    request start and end, signals and middleware are not run for these answers, which use
    no database connection. Why: docs/architecture.md, Design notes."""

    def __init__(self, application):
        self.application = application
        self._headers: dict[tuple[str, str], list[tuple[str, str]]] = {}

    def __call__(self, environ, start_response):
        poll = _poll_in(environ)
        if poll is None:
            return self.application(environ, start_response)
        route, token = poll
        kind = (route.prefix, _scheme(environ))
        headers = self._headers.get(kind)
        if headers is not None and _known_unchanged(route, token, _version_asked(environ)):
            start_response("204 No Content", list(headers))
            return []
        said = []

        def start_and_keep(status, response_headers, exc_info=None):
            said[:] = [status, response_headers]
            return start_response(status, response_headers, exc_info)

        response = self.application(environ, start_and_keep)
        if environ.get(ANSWERED_UNCHANGED) and said and _repeatable(*said):
            self._headers[kind] = list(said[1])
        return response


def _repeatable(status: str, headers: list[tuple[str, str]]) -> bool:
    """Whether an answer Django gave may be given again to another request: an empty 204
    that sets no cookie."""
    return status.startswith("204 ") and all(name.lower() != "set-cookie" for name, _ in headers)


def _poll_in(environ) -> tuple[PollRoute, str] | None:
    """The poll route and token of a ``GET`` of one of the polls' URLs with a token of
    ours (the path as Django reads it, for the ASCII a token is made of), unless Django
    might answer it in a way that depends on more than its kind and scheme: a request
    naming the charset of its query string, or paths exempt from the HTTPS redirect."""
    if environ.get("REQUEST_METHOD", "").upper() != "GET":
        return None
    if "charset" in environ.get("CONTENT_TYPE", "").lower() or settings.SECURE_REDIRECT_EXEMPT:
        return None
    poll = _poll_of(environ.get("PATH_INFO", ""))
    return poll if poll is not None and TOKEN.fullmatch(poll[1]) else None


def _version_asked(environ) -> str | None:
    """The poll's ``v``, as Django reads a query string (``WSGIRequest.GET``); None when
    Django would refuse the query string (too many fields: its 400)."""
    try:
        return QueryDict(environ.get("QUERY_STRING", "").encode("iso-8859-1")).get("v")
    except SuspiciousOperation:
        return None


def _scheme(environ) -> str:
    """The request's scheme as Django's ``HttpRequest.scheme`` says it: behind a proxy
    (``SECURE_PROXY_SSL_HEADER``), from the proxy's header."""
    header = settings.SECURE_PROXY_SSL_HEADER
    if header:
        name, secure = header
        value = environ.get(name)
        if value is not None:
            value, *_ = value.split(",", 1)
            return "https" if value.strip() == secure else "http"
    return environ.get("wsgi.url_scheme", "http")
