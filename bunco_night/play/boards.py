"""A table's board, kept as it was rendered for the next phones that poll for it.

When a table changes, each other phone at it polls once for the new board. The first
render (the tap's answer, or a poll's) is kept in the database with the version it
claims (``models.Board``), and ``polls.UnchangedPollMiddleware`` answers the next polls
from it: one query (the table's version and its kept board), no template.

Why a kept board is always the board a fresh render would give: a page never claims a
version newer than what it shows (see ``pages.table_page`` and the tap in
``views.table_entry``), and every change a board shows moves the night's or the table's
version. So a kept board whose version is the table's current one shows the current
state; any other kept board is not sent. This holds with any number of processes and
machines: nothing is kept outside the database. A board that counts down a timed round
shows the time, which moves without a version, so it is never kept. A board kept by
other code (before an upgrade, or by a machine not yet upgraded) is not sent either:
each is kept with a fingerprint of the code and templates that drew it (``build``).
Keeping is only a saving: when the database will not take it, the board is not kept.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from contextlib import nullcontext
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest
from django.template.loader import render_to_string

from .models import Board

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
    """``page`` (a ``pages.TablePage``) as its poll fragment; kept for the next polls
    unless it shows a round's clock."""
    html = render_to_string(TEMPLATE, {"page": page, "token": token}, request=request)
    if page.clock is None:
        keep(page.table.pk, page.version, html)
    return html


@functools.cache
def _upsert_sql() -> str:
    """Insert or replace a table's kept board: one statement, the same on SQLite (3.24 and
    later) and PostgreSQL."""
    meta, quote = Board._meta, connection.ops.quote_name
    table, *kept = (quote(meta.get_field(f).column) for f in ("table", "version", "build", "html"))
    return (
        f"INSERT INTO {quote(meta.db_table)} ({table}, {', '.join(kept)}) "
        f"VALUES (%s, %s, %s, %s) ON CONFLICT ({table}) DO UPDATE SET "
        + ", ".join(f"{c} = excluded.{c}" for c in kept)
    )


def keep(table_id: int, version: str, html: str) -> None:
    """Keep ``html`` as the board of table ``table_id`` at ``version``. Two renders may
    race: whichever is kept, only one whose version is current is ever sent. On SQLite in
    a transaction, so that it waits for its turn with the taps' writes (``core/sqlite``)
    rather than in SQLite's sleeps between them; elsewhere the one statement is its own
    transaction (on PostgreSQL, BEGIN and COMMIT would be two more round trips), or a
    savepoint in a caller's. A database error (the write lock not had in time) leaves the
    board not kept, and the request whole."""
    alone = connection.vendor != "sqlite" and not connection.in_atomic_block
    try:
        with nullcontext() if alone else transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_upsert_sql(), [table_id, version, build(), html])
    except DatabaseError:
        logger.warning("Table %s's board was not kept.", table_id, exc_info=True)
