"""Reads that run on every phone's request, with their SQL written by the ORM only once.

A ``Compiled`` read (``CompiledUpdate`` for an ``update()``) builds its queryset once per
thread with *markers* for the values that change; each run gives what the queryset would
have given, and on PostgreSQL its statement is prepared (``core.speed.prepared``). A marker must
be a value the field takes and appear once among the query's parameters (checked at the
first run). A run's values go to the database unchecked: pass ints from the database and
tokens that passed the URL's converter. Why: docs/architecture.md, Design notes."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from typing import TypeVar

from django.core.exceptions import EmptyResultSet, ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, Error, connections, transaction
from django.db.models.query import (
    ModelIterable,
    QuerySet,
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.sql import UpdateQuery
from django.db.transaction import TransactionManagementError

from bunco_night.core.speed.prepared import prepared

# Markers for ids: no row has a negative id. Several in one query must differ.
ID_MARKERS = (-910_000_001, -910_000_002, -910_000_003)

log = logging.getLogger(__name__)
T = TypeVar("T")


def as_health_check(read: Callable[[], T]) -> T:
    """``read()``, a request's first query, as its connection's health check.

    Django's (CONN_HEALTH_CHECKS) asks the database ``SELECT 1`` before a request's first
    query, which on PostgreSQL costs a round trip as long as a small read's: for a phone's
    poll or tap, one of its few. Here the read is the check. Where the connection has
    gone (a database restart, an idle connection dropped), the read fails; the connection
    is closed and the read asked once more on a new one, as the health check would have
    done. Inside a transaction nothing is asked again: the error is the caller's (not
    for use inside a ``short_transaction``, which Django's atomic blocks do not see).
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.connection is not None:
        connection.health_check_done = True
    try:
        return read()
    except Error as error:  # django.db's: a lost connection is an OperationalError or
        if connection.in_atomic_block:  # an InterfaceError, as the driver finds it
            raise
        log.warning("A query failed (%s); asking again on a new connection.", error)
        connection.close()
        return read()


@dataclass(frozen=True)
class _Kept:
    """One thread's compiled query: its connection, its SQL with the markers' places in
    its parameters, and what reads its rows."""

    connection: object
    sql: str
    params: tuple
    places: tuple[int, ...]
    compiler: object = None
    converters: dict | None = None
    # For model instances: the model, where its columns are, their names, and the
    # populators of the select_related objects.
    model: type | None = None
    span: tuple[int, int] = (0, 0)
    names: tuple[str, ...] = ()
    populators: tuple = ()


class _Written:
    """What reads and updates share: the SQL compiled once per thread with markers."""

    def __init__(self, build: Callable[..., QuerySet], *markers):
        self.build = build
        self.markers = markers
        self._local = threading.local()

    def _compile(self, queryset: QuerySet, connection) -> tuple[object, str, tuple]:
        raise NotImplementedError

    def _is_kept(self) -> bool:
        """Whether this thread has the SQL written for its connection."""
        kept = getattr(self._local, "kept", None)
        return kept is not None and kept.connection is connections[DEFAULT_DB_ALIAS]

    def _kept(self) -> _Kept:
        if self._is_kept():
            return self._local.kept
        connection = connections[DEFAULT_DB_ALIAS]
        queryset = self.build(*self.markers)
        try:
            compiler, sql, params = self._compile(queryset, connection)
        except EmptyResultSet as error:
            raise ImproperlyConfigured(
                f"A {queryset.model.__name__} query matches nothing with {self.markers!r}: "
                "a marker is out of its field's range."
            ) from error
        params = tuple(params)
        places = []
        for marker in self.markers:
            if params.count(marker) != 1:
                raise ImproperlyConfigured(
                    f"A {queryset.model.__name__} query takes {params!r}: {marker!r} is not "
                    "in it once."
                )
            places.append(params.index(marker))
        kept = self._more(_Kept(connection, sql, params, tuple(places)), compiler, queryset)
        self._local.kept = kept
        return kept

    def _more(self, kept: _Kept, compiler, queryset: QuerySet) -> _Kept:
        return kept

    @staticmethod
    def _params(kept: _Kept, values: tuple) -> list:
        """The SQL's parameters with ``values`` in the markers' places."""
        params = list(kept.params)
        for place, value in zip(kept.places, values, strict=True):
            params[place] = value
        return params

    def _execute(self, kept: _Kept, values: tuple):
        """A cursor that ran the SQL with ``values`` in the markers' places."""
        cursor = kept.connection.cursor()
        try:
            cursor.execute(*prepared(kept.connection, kept.sql, self._params(kept, values)))
        except BaseException:
            cursor.close()
            raise
        return cursor


class Compiled(_Written):
    """A read whose SQL is written once per thread: ``build(*markers)`` is its queryset."""

    def _compile(self, queryset, connection):
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        return compiler, sql, params

    def _more(self, kept, compiler, queryset):
        # Only what the steps below do as the queryset's own iteration would: model
        # instances (with select_related) or a plain values_list, nothing done after.
        if queryset._iterable_class not in (ModelIterable, ValuesListIterable) or (
            queryset._prefetch_related_lookups
            or queryset._known_related_objects
            or queryset.query.annotations
            or queryset.query.extra
        ):
            raise ImproperlyConfigured(
                "A Compiled read is a model query or a plain values_list: no flat or named "
                "values, values(), prefetch_related, annotations or extra."
            )
        fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        kept = replace(kept, compiler=compiler, converters=compiler.get_converters(fields))
        if queryset._iterable_class is ValuesListIterable:
            return kept
        # As Django's ModelIterable reads a row into an instance.
        klass_info, select = compiler.klass_info, compiler.select
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        return replace(
            kept,
            model=klass_info["model"],
            span=(start, end),
            names=tuple(f[0].target.attname for f in select[start:end]),
            populators=tuple(get_related_populators(klass_info, select, kept.connection.alias)),
        )

    def _rows(self, kept: _Kept, values: tuple) -> list:
        with self._execute(kept, values) as cursor:
            return self._converted(kept, cursor.fetchall())

    @staticmethod
    def _converted(kept: _Kept, rows: list) -> list:
        if kept.converters:
            rows = list(map(tuple, kept.compiler.apply_converters(rows, kept.converters)))
        return rows

    def rows(self, *values) -> list[tuple]:
        """The rows of a ``values_list`` query, the values in the markers' places."""
        return self._rows(self._kept(), values)

    def first_row(self, *values) -> tuple | None:
        rows = self.rows(*values)
        return rows[0] if rows else None

    def instances(self, *values) -> list:
        """The model instances the queryset gives, the values in the markers' places."""
        kept = self._kept()
        if kept.model is None:
            raise ImproperlyConfigured("instances() reads model instances; use rows().")
        return self._instances(kept, self._rows(kept, values))

    @staticmethod
    def _instances(kept: _Kept, rows: list) -> list:
        """The model instances of converted ``rows``, as Django's ModelIterable makes them."""
        db, (start, end) = kept.connection.alias, kept.span
        objects = []
        for row in rows:
            obj = kept.model.from_db(db, kept.names, row[start:end])
            for populator in kept.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects

    def instance(self, *values):
        """The first instance (build the queryset with ``[:1]``), or None."""
        objects = self.instances(*values)
        return objects[0] if objects else None


def all_together(*reads: tuple[Compiled, tuple], first: str = "") -> list[list]:
    """Several ``Compiled`` reads in one round trip to the database: what each one's
    ``instances`` or ``rows`` (a ``values_list``) would give, in order.

    PostgreSQL only: its client-side binding (Django's, by default) sends statements
    separated by ";" in one message, and the server answers each in turn. ``first``: a
    statement without rows sent ahead of them (``BEGIN``, for ``short_transaction``).
    Each statement still reads what was committed when it starts (READ COMMITTED takes a
    snapshot per statement), so a read sent after a lock sees what the lock waited for.
    An error in one statement fails the whole call: the statements after it do not run.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        raise ImproperlyConfigured("all_together sends several statements at once: PostgreSQL.")
    # The ORM writes a select_for_update only inside a transaction: the one around a
    # thread's first writing sends nothing to the database (writing SQL is not running
    # it; and no savepoint), though Django's debug list of queries shows its BEGIN and
    # COMMIT.
    writing = any(not read._is_kept() for read, _ in reads)
    with transaction.atomic(savepoint=False) if writing else nullcontext():
        kept = [read._kept() for read, _ in reads]
    results = []
    with connection.cursor() as cursor:  # the connection as it will be used: open, checked
        sent = [
            prepared(connection, k.sql, Compiled._params(k, v))
            for k, (_, v) in zip(kept, reads, strict=True)
        ]
        statements = ([first] if first else []) + [sql for sql, _ in sent]
        cursor.execute("; ".join(statements), [p for _, values in sent for p in values])
        for n, k in enumerate(kept):
            if first or n:  # the next statement's answer
                cursor.nextset()
            rows = Compiled._converted(k, cursor.fetchall())
            results.append(rows if k.model is None else Compiled._instances(k, rows))
    return results


@contextmanager
def short_transaction():
    """A write transaction on PostgreSQL whose ``BEGIN`` goes with its first statement and
    whose ``COMMIT`` with its last (``all_together``): two round trips fewer than ``atomic``.
    Outside any atomic block only (``may_shorten``); once BEGIN has gone nothing inside may
    use ``transaction.atomic`` or ``as_health_check``. It ends outside any transaction, what
    it did not commit rolled back; a block ending without its COMMIT raises
    ``TransactionManagementError``. Why: docs/architecture.md, Design notes."""
    connection = connections[DEFAULT_DB_ALIAS]
    if not may_shorten():
        raise ImproperlyConfigured("short_transaction: PostgreSQL, outside any atomic block.")
    from psycopg.pq import TransactionStatus  # PostgreSQL's driver, there on PostgreSQL

    ended = False
    try:
        yield
        ended = True
    finally:
        raw = connection.connection
        status = raw.info.transaction_status if raw is not None else TransactionStatus.IDLE
        if status in (TransactionStatus.INTRANS, TransactionStatus.INERROR):
            try:
                with connection.cursor() as cursor:
                    cursor.execute("ROLLBACK")
            except Error:  # the connection went meanwhile: the block's own error stands
                connection.close()
        elif status != TransactionStatus.IDLE:  # lost, or still busy: never used again
            connection.close()
    if ended and status != TransactionStatus.IDLE:
        # The block ended without its COMMIT: its caller must not answer as if stored.
        raise TransactionManagementError("A short transaction ended without its COMMIT.")


def may_shorten() -> bool:
    """Whether ``short_transaction`` may run here: PostgreSQL, outside any atomic block,
    on a connection in autocommit (as Django keeps it outside atomic blocks), with
    Django's client-side binding (server-side binding sends one statement a message)
    and PostgreSQL's READ COMMITTED (a snapshot per statement, which ``all_together``'s
    reads after a lock rely on)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        return False
    from psycopg import IsolationLevel  # PostgreSQL's driver, there on PostgreSQL

    options = connection.settings_dict.get("OPTIONS", {})
    read_committed = IsolationLevel.READ_COMMITTED
    return (
        not options.get("server_side_binding")
        and options.get("isolation_level", read_committed) == read_committed
        and not connection.in_atomic_block
        and connection.get_autocommit()
    )


class WriteBatch:
    """The statements of a ``write_transaction``, as they go to the database: in a short
    one, its first reads together with its BEGIN and its last statement with its COMMIT;
    else each as it comes."""

    def __init__(self, short: bool):
        self.short = short
        self._begun = not short

    def read(self, *reads: tuple[Compiled, tuple]) -> list[list]:
        """What each ``Compiled`` read's ``instances`` or ``rows`` (a
        ``values_list``) gives, in order: in one round trip in a short transaction (its
        first statements, sent with its BEGIN), else one after the other."""
        if self.short:
            first, self._begun = ("" if self._begun else "BEGIN"), True
            return all_together(*reads, first=first)
        return [
            read.rows(*v) if read._kept().model is None else read.instances(*v) for read, v in reads
        ]

    def last(self, sql: str) -> str:
        """``sql`` as the transaction's last statement: sent with the COMMIT of a short
        one. Nothing may be asked of the database after it."""
        return f"{sql}; COMMIT" if self.short else sql


@contextmanager
def write_transaction(*, short: bool = False):
    """One write transaction, yielding its ``WriteBatch``: a ``short_transaction`` where
    ``short`` is asked and ``may_shorten``, else ``transaction.atomic``. The block must
    then begin with ``batch.read`` and end with a statement sent as ``batch.last``."""
    if short and may_shorten():
        with short_transaction():
            yield WriteBatch(short=True)
    else:
        with transaction.atomic():
            yield WriteBatch(short=False)


class CompiledUpdate(_Written):
    """``build(*markers).update(**changes(*markers))`` written once per thread."""

    def __init__(self, build: Callable[..., QuerySet], changes: Callable[..., dict], *markers):
        super().__init__(build, *markers)
        self.changes = changes

    def _compile(self, queryset, connection):
        # As QuerySet.update() makes its query (no ordering or annotations to inline).
        query = queryset.order_by().query.chain(UpdateQuery)
        query.add_update_values(self.changes(*self.markers))
        query.clear_select_clause()
        compiler = query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        return compiler, sql, params

    def run(self, *values) -> int:
        """Run the UPDATE with ``values`` in the markers' places: the rows it changed."""
        with self._execute(self._kept(), values) as cursor:
            return cursor.rowcount
