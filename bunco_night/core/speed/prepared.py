"""PostgreSQL prepared statements for the reads and writes whose SQL is written once
(``core.speed.compiled``): from a statement's second run on a connection, ``EXECUTE`` of the
statement prepared there, instead of its text parsed and planned afresh."""

from __future__ import annotations

import hashlib
import logging
import re
import time
import weakref

from django.conf import settings
from django.db import Error

log = logging.getLogger(__name__)

# The run of a statement on one connection at which it is prepared: not the first, so that
# a connection used once (CONN_MAX_AGE 0) never spends a round trip preparing.
PREPARE_AT = 2
# By connection to PostgreSQL (one database session): each statement's runs so far, or
# the name it is prepared as.
_SESSIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Statements PostgreSQL would not prepare (a parameter whose type it cannot tell): sent as
# they are. By this process, for its life.
_UNPREPARABLE: set[str] = set()
_PLACEHOLDER = re.compile(r"%%|%s")


def prepared(connection, sql: str, params) -> tuple[str, list]:
    """``sql`` and ``params`` as ``connection`` should send them: on PostgreSQL, from a
    statement's second run on one connection, ``EXECUTE <name>(<params>)`` of the same SQL
    prepared there once; elsewhere, where it cannot be prepared, with server-side binding or
    behind a pooler in transaction mode (``_may_prepare``), as they are. Django counts the
    same queries either way; a stale session closes at its request's end
    (``obsolete_when_stale``). Why: docs/architecture.md, Design notes."""
    if sql in _UNPREPARABLE or not _may_prepare(connection):
        return sql, params
    raw = connection.connection
    session = _SESSIONS.get(raw)
    if session is None:
        session = _SESSIONS[raw] = {}
    known = session.get(sql, 0)
    if isinstance(known, int):
        if known + 1 < PREPARE_AT:
            session[sql] = known + 1
            return sql, params
        name = "bunco_" + hashlib.blake2b(sql.encode(), digest_size=8).hexdigest()
        if not _prepare(connection, name, sql):
            _UNPREPARABLE.add(sql)
            return sql, params
        session[sql] = known = name
    params = list(params)
    if not params:
        return f"EXECUTE {known}", params
    return f"EXECUTE {known}({', '.join(['%s'] * len(params))})", params


def obsolete_when_stale(execute, sql, params, many, context):
    """A Django execute wrapper on every PostgreSQL connection (``core.apps``): when an
    ``EXECUTE`` of ``prepared`` fails because the session no longer has the statement
    (SQLSTATE 26000: a ``DISCARD ALL``, a pooler that changed sessions) or its plan no
    longer fits its tables (0A000, "cached plan must not change result type": a
    migration changed a column while the connection lived), the connection is made
    obsolete. The request fails as with any database error; Django closes the connection
    at the request's end, and the next one prepares afresh."""
    try:
        return execute(sql, params, many, context)
    except Error as error:
        if getattr(error.__cause__, "sqlstate", None) in ("26000", "0A000") and (
            "EXECUTE bunco_" in sql
        ):
            log.warning("A prepared statement went stale (%s): the connection will close.", error)
            context["connection"].close_at = time.monotonic()
        raise


def _may_prepare(connection) -> bool:
    """Whether ``prepared`` prepares on ``connection``: PostgreSQL with Django's client-side
    binding (with server-side binding psycopg prepares, and an ``EXECUTE`` takes no bound
    parameters), unless ``settings.DATABASE_PREPARE`` is off (for a pooler that hands one
    client's statements to several database sessions: PgBouncer's transaction mode)."""
    if connection.vendor != "postgresql" or connection.connection is None:
        return False
    options = connection.settings_dict.get("OPTIONS", {})
    return settings.DATABASE_PREPARE and not options.get("server_side_binding")


def _prepare(connection, name: str, sql: str) -> bool:
    """Prepare ``sql`` as ``name`` on ``connection``'s session: whether PostgreSQL took it.
    It will not take a statement with an error of class 42 (a parameter of no type it can
    tell, a table that does not exist): False, and the transaction is as it was. Any
    other error (a lost connection) is the caller's, as Django's error."""
    from psycopg import errors  # PostgreSQL's driver, there on PostgreSQL
    from psycopg.pq import TransactionStatus

    raw = connection.connection
    # Inside Django's atomic block psycopg sends its BEGIN with the first statement: a
    # transaction is open then too, though the connection still says IDLE.
    savepoint = raw.info.transaction_status != TransactionStatus.IDLE or not raw.autocommit
    with connection.wrap_database_errors, raw.cursor() as cursor:
        if savepoint:
            cursor.execute("SAVEPOINT bunco_prepare")
        try:
            cursor.execute(f"PREPARE {name} AS {_numbered(sql)}")
            refused = None
        except errors.ProgrammingError as error:
            if not (error.sqlstate or "").startswith("42"):
                raise
            refused = error
        if savepoint:
            if refused is not None:
                cursor.execute("ROLLBACK TO SAVEPOINT bunco_prepare")
            cursor.execute("RELEASE SAVEPOINT bunco_prepare")
    if isinstance(refused, errors.DuplicatePreparedStatement):
        return True  # prepared by other code, under the name this SQL gives
    if refused is not None:
        log.warning("PostgreSQL will not prepare a statement (%s): sent as it is.", refused)
    return refused is None


def _numbered(sql: str) -> str:
    """Django's SQL for PostgreSQL with its ``%s`` markers as ``$1``, ``$2``... (and ``%%``
    as ``%``), as ``PREPARE`` takes it."""
    count = 0

    def number(match):
        nonlocal count
        if match.group(0) == "%%":
            return "%"
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)
