"""A table's board, kept as it was rendered for the next phones that poll for it.

The first render of a table's new board (a tap's answer or a poll's) is kept with the
version it claims and the code that drew it (``models.Board``, ``build``); the poll
middleware (``polls.py``) sends it while that version is the table's. The same row keeps
the table as the live board and room screen draw it (``kept_screens``) and its state
(``kept_states``). Keeping is only a saving. Why it is right: docs/architecture.md, Design notes.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from collections.abc import Collection
from contextlib import nullcontext
from pathlib import Path
from typing import NamedTuple

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from bunco_night.core.speed.after_answer import after_answer
from bunco_night.core.speed.prepared import prepared
from bunco_night.rules.rounds import TableState

from ..models import Board

logger = logging.getLogger(__name__)

# The table phone's board and its recent entries, as a poll swaps them in.
TEMPLATE = "play/table.html#poll"


@functools.cache
def build() -> str:
    """A fingerprint of the site's Python and templates, the same in every process of one
    release: read once per process (a few hundred small files)."""
    digest = hashlib.blake2b(digest_size=8)
    base = Path(settings.BASE_DIR)
    for folder in ("bunco_night", "templates"):
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in (".py", ".html") and path.is_file():
                digest.update(str(path.relative_to(base)).encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def render_board(request: HttpRequest, page, token: str) -> str:
    """``page`` (a ``pages.TablePage``) as its poll fragment. Unless it shows a round's
    clock, it is kept for the next polls once the answer has gone (``_keep_drawn``)."""
    html = render_to_string(TEMPLATE, {"page": page, "token": token}, request=request)
    if page.clock is None:
        after_answer(request, functools.partial(_keep_drawn, page, html))
    return html


def _keep_drawn(page, html: str) -> None:
    """Keep ``html``, ``page``'s board, with the table as the host's screens draw it
    while its round is in play (``SCREENS``): after the answer that carries the board
    (``core.speed.after_answer``), so the answer to a phone's tap or poll does not wait for
    the screens' drawings or for the write (the phone's next request on the same
    connection still does). Meanwhile another phone's poll finds no board kept at the
    table's version and draws it (the phone that has the answer polls at its version)."""
    keep(page.table.pk, page.version, html, screens_of(page) if page.on_screens else None)


# The host's screens' drawings of one table, as their polls send a table that changed
# (``live.board_update``): by screen, the template partial.
SCREENS = {"live": "play/live.html#live_table", "room": "play/room.html#room_table"}


class Screens(NamedTuple):
    """A table as the host's screens draw it (``screens_of``), kept with its board."""

    bell: bool  # the room's bell it was drawn with
    live: str
    room: str
    state: str  # the table's state by the rules: ``TableState.as_data``, as JSON


def screens_of(page) -> Screens:
    """The table of ``page`` (its round in play, ``on_screens``) as the live board and the
    room screen draw it, the room's bell it was drawn with, and its state. The partials
    draw a table from ``tr``, ``board.round``, ``night`` and ``oob`` only, which is all
    this context has (no request, no CSRF token): their polls' context has more
    (``live.html#changes``, ``room.html#changes``), and tests/play/test_boards.py checks
    that both draw alike."""
    context = {"tr": page.here, "board": {"round": page.round}, "night": page.night, "oob": True}
    return Screens(
        page.here.bell,
        render_to_string(SCREENS["live"], context),
        render_to_string(SCREENS["room"], context),
        json.dumps(page.here.state.as_data(), separators=(",", ":")),
    )


def _current(rows, night_version: int):
    """Of kept ``rows`` (table id, kept version, the table's version, the night's version,
    what was kept...), read in one statement, those kept at their table's version now,
    while the night is still at ``night_version`` (the version the caller read the night
    and its round in play at): (table id, what was kept...). Every change of round moves
    the night's version, and a table's version does not move with it: a row kept in
    another round at the same table version is never taken for this one."""
    for table, version, table_version, night_now, *kept in rows:
        if night_now == night_version and version == f"{night_version}.{table_version}":
            yield table, *kept


# Read with each kept row, in the same statement: its table's version and its night's.
_VERSIONS = ("table_id", "version", "table__version", "table__night__version")


def kept_screens(
    screen: str, night_version: int, tables: Collection[int]
) -> dict[int, tuple[bool, str]]:
    """Of ``tables`` (ids), those whose drawing for ``screen`` (a key of ``SCREENS``) is
    kept at their version now by this code (``_current``): id: (the bell it was drawn
    with, the drawing). The version is "night version.table version", as for the phones."""
    if screen not in SCREENS:
        raise ValueError(f"No such screen: {screen!r}")
    if not tables:
        return {}
    rows = Board.objects.filter(table_id__in=tables, build=build()).exclude(**{screen: ""})
    return {
        table: (bell, mark_safe(html))  # drawn by screens_of, from our own templates
        for table, bell, html in _current(
            rows.values_list(*_VERSIONS, "bell", screen), night_version
        )
    }


def kept_states(night: int, night_version: int, tables: Collection[int]) -> dict[int, TableState]:
    """Of ``tables`` (ids) of night ``night``, those whose state is kept at their version
    now by this code (``_current``): id: the state (``Screens.state``)."""
    rows = Board.objects.filter(table__night_id=night, build=build()).exclude(state="")
    return {
        table: TableState.from_data(json.loads(state))
        for table, state in _current(rows.values_list(*_VERSIONS, "state"), night_version)
        if table in tables
    }


_KEPT = ("version", "build", "html", "bell", "live", "room", "state")


@functools.cache
def _upsert_sql() -> str:
    """Insert or replace a table's kept board: one statement, the same on SQLite (3.24 and
    later) and PostgreSQL."""
    meta, quote = Board._meta, connection.ops.quote_name
    table, *kept = (quote(meta.get_field(f).column) for f in ("table", *_KEPT))
    return (
        f"INSERT INTO {quote(meta.db_table)} ({table}, {', '.join(kept)}) "
        f"VALUES ({', '.join(['%s'] * (len(kept) + 1))}) ON CONFLICT ({table}) DO UPDATE SET "
        + ", ".join(f"{c} = excluded.{c}" for c in kept)
    )


def keep(table_id: int, version: str, html: str, screens: Screens | None = None) -> None:
    """Keep ``html`` as the board of table ``table_id`` at ``version``, with ``screens``
    (``screens_of``) if given. Two renders may race: whichever is kept, only one whose
    version is current is ever sent. On SQLite in a transaction (IMMEDIATE: it waits for
    the write lock as the taps do); elsewhere the one statement is its own transaction (on
    PostgreSQL, BEGIN and COMMIT would be two more round trips), or a savepoint in a
    caller's. A database error (the write lock not had in time) leaves the board not kept,
    and the request whole."""
    alone = connection.vendor != "sqlite" and not connection.in_atomic_block
    try:
        with nullcontext() if alone else transaction.atomic(), connection.cursor() as cursor:
            kept = screens or Screens(False, "", "", "")
            params = [table_id, version, build(), html, *kept]
            cursor.execute(*prepared(connection, _upsert_sql(), params))
    except DatabaseError:
        logger.warning("Table %s's board was not kept.", table_id, exc_info=True)
