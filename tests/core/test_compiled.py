"""Reads and updates whose SQL is written once (bunco_night/core/speed/compiled.py) give what the
ORM's querysets give: the same rows, instances with the same values and the same
select_related objects, the same updates."""

import re
import threading
from contextlib import nullcontext

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import (
    DEFAULT_DB_ALIAS,
    DataError,
    NotSupportedError,
    OperationalError,
    ProgrammingError,
    connection,
    connections,
    transaction,
)
from django.db.models import F
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from bunco_night.core.speed import prepared as preparing
from bunco_night.core.speed.compiled import (
    ID_MARKERS,
    Compiled,
    CompiledUpdate,
    all_together,
    as_health_check,
    may_shorten,
    short_transaction,
    write_transaction,
)
from bunco_night.core.speed.prepared import prepared
from bunco_night.nights.models import Seat, Table
from bunco_night.nights.services import attendance_leave
from bunco_night.play.models import Board, Entry
from bunco_night.play.services import round_start
from bunco_night.play.speed import boards
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night, tap
from tests.search import examples

pytestmark = pytest.mark.django_db

SEATS = Compiled(
    lambda rnd, table: (
        Seat.objects.filter(round_id=rnd, table_id=table)
        .select_related("player", "ghost_for__player")
        .order_by("number")
    ),
    *ID_MARKERS[:2],
)
ENTRIES = Compiled(
    lambda table: Entry.objects.filter(table_id=table).select_related("roller"), ID_MARKERS[0]
)
ENTRY_TIMES = Compiled(
    lambda table: Entry.objects.filter(table_id=table).values_list("pk", "created", "reset"),
    ID_MARKERS[0],
)
TABLE_BY_TOKEN = Compiled(
    lambda token: Table.objects.select_related("night__group").filter(token=token)[:1], "TOKEN"
)


def values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def ghost_round():
    """Round 2 of a night with ghosts, started after a regular left: a ghost stands in
    for her, so a seat has ``ghost_for`` and no player."""
    night = make_night(make_group(regulars=12, fill="ghosts"), sets=1)
    start_night(night, seed=12)
    play_round(night)
    attendance_leave(attendance=night.attendances.get(player__name="Regular 3"))
    return round_start(night=night)


def test_instances_and_their_related_objects_are_the_querysets(
    ghost_round, django_assert_num_queries
):
    rnd = ghost_round
    ghosts = 0
    for table in Table.objects.filter(night=rnd.night):
        orm = list(
            Seat.objects.filter(round=rnd, table=table)
            .select_related("player", "ghost_for__player")
            .order_by("number")
        )
        with django_assert_num_queries(1):
            compiled = SEATS.instances(rnd.pk, table.pk)
            # The select_related objects came with the row: reading them is no query.
            names = [seat.occupant_name for seat in compiled]
        assert [values(s) for s in compiled] == [values(s) for s in orm]
        assert names == [seat.occupant_name for seat in orm]
        for mine, theirs in zip(compiled, orm, strict=True):
            assert type(mine) is Seat and mine.pk == theirs.pk
            assert (mine.player and values(mine.player)) == (
                theirs.player and values(theirs.player)
            )
            assert (mine.ghost_for and values(mine.ghost_for.player)) == (
                theirs.ghost_for and values(theirs.ghost_for.player)
            )
            ghosts += mine.ghost_for_id is not None
    assert ghosts, "the fixture has a ghost standing in for someone"


def test_rows_are_converted_as_the_orm_converts_them(ghost_round):
    rnd = ghost_round
    table = Table.objects.get(night=rnd.night, number=2)
    tap(table, 1, "points", 1)
    tap(table, 2, "miss")
    rows = ENTRY_TIMES.rows(table.pk)
    assert rows == list(Entry.objects.filter(table=table).values_list("pk", "created", "reset"))
    assert all(created.tzinfo is not None and reset is False for _, created, reset in rows)
    entries = ENTRIES.instances(table.pk)
    assert [values(e) for e in entries] == [
        values(e) for e in Entry.objects.filter(table=table).select_related("roller")
    ]
    assert [e.roller.name for e in entries] == [
        e.roller.name for e in Entry.objects.filter(table=table).select_related("roller")
    ]


def test_first_and_first_row(ghost_round):
    table = Table.objects.filter(night=ghost_round.night).first()
    found = TABLE_BY_TOKEN.instance(table.token)
    assert values(found) == values(table)
    assert values(found.night.group) == values(table.night.group)
    assert TABLE_BY_TOKEN.instance("no-such-token") is None
    assert ENTRY_TIMES.first_row(-5) is None


@settings(max_examples=examples(40), deadline=None)
@given(table=st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_any_id_reads_what_the_orm_reads(table):
    """Any id the field takes, found or not, reads the ORM's rows (no row here: a clean
    database each example; the point is the SQL and its parameters)."""
    assert ENTRY_TIMES.rows(table) == list(
        Entry.objects.filter(table_id=table).values_list("pk", "created", "reset")
    )


def test_an_update_changes_what_the_querysets_update_changes(ghost_round):
    tables = list(Table.objects.filter(night=ghost_round.night).order_by("number"))
    move = CompiledUpdate(
        lambda table: Table.objects.filter(pk=table),
        lambda table: {"version": F("version") + 2},
        ID_MARKERS[0],
    )
    before = {t.pk: t.version for t in tables}
    assert move.run(tables[0].pk) == 1
    assert move.run(-1) == 0
    after = dict(Table.objects.filter(night=ghost_round.night).values_list("pk", "version"))
    assert after == {**before, tables[0].pk: before[tables[0].pk] + 2}


def test_a_marker_not_in_the_query_once_is_refused_at_the_first_run():
    twice = Compiled(
        lambda pk: Entry.objects.filter(table_id=pk, round_id=pk).values_list("pk"),
        ID_MARKERS[0],
    )
    with pytest.raises(ImproperlyConfigured, match="not in it once"):
        twice.rows(1)
    out_of_range = Compiled(lambda number: Seat.objects.filter(number=number).values_list("pk"), -1)
    with pytest.raises(ImproperlyConfigured, match="out of its field's range"):
        out_of_range.rows(1)


@pytest.mark.parametrize(
    "build",
    [
        lambda table: Entry.objects.filter(table_id=table).values_list("pk", flat=True),
        lambda table: Entry.objects.filter(table_id=table).values("pk"),
        lambda table: Entry.objects.filter(table_id=table).prefetch_related("roller"),
        lambda table: Seat.objects.filter(table_id=table).annotate(n=F("number") + 1),
    ],
)
def test_what_a_compiled_read_would_give_differently_is_refused(build):
    """Flat or dict rows, prefetching, annotations: the queryset's own iteration does more
    than a Compiled read does, so it refuses them rather than answer differently."""
    with pytest.raises(ImproperlyConfigured, match="model query or a plain values_list"):
        Compiled(build, ID_MARKERS[0]).rows(1)


def test_model_instances_need_a_model_query():
    with pytest.raises(ImproperlyConfigured, match="use rows"):
        ENTRY_TIMES.instances(1)


@pytest.mark.django_db(transaction=True)
def test_each_thread_compiles_for_its_own_connection(ghost_round):
    """Threads (gunicorn's) each have their connection: each thread's read is compiled
    on it, and gives the same rows."""
    rnd = ghost_round
    table = Table.objects.filter(night=rnd.night).first()
    here = [values(s) for s in SEATS.instances(rnd.pk, table.pk)]
    there = {}

    def read():
        from django.db import connection as thread_connection

        try:
            there["seats"] = [values(s) for s in SEATS.instances(rnd.pk, table.pk)]
            there["connection"] = SEATS._local.kept.connection
        finally:
            thread_connection.close()

    worker = threading.Thread(target=read)
    worker.start()
    worker.join()
    assert there["seats"] == here
    assert there["connection"] is not SEATS._local.kept.connection
    assert SEATS._local.kept.connection is connections[DEFAULT_DB_ALIAS]


SEATS_LOCKED = Compiled(
    lambda rnd, table: (
        Seat.objects.select_for_update(of=("self",))
        .filter(round_id=rnd, table_id=table)
        .select_related("player", "ghost_for__player")
        .order_by("number")
    ),
    *ID_MARKERS[:2],
)
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="several statements in one message: PostgreSQL"
)


@on_postgresql
def test_reads_together_give_what_each_gives_alone(ghost_round):
    """``all_together``: one round trip (one query to Django), each read's instances or
    rows as its own ``all`` or ``rows`` gives them, in order; a select_for_update read
    among them (written by the ORM only inside a transaction)."""
    rnd = ghost_round
    table = Table.objects.filter(night=rnd.night).order_by("number")[1]
    tap(table, 1, "points", 1)
    tap(table, 2, "miss")
    SEATS_LOCKED._local.__dict__.clear()  # written afresh for this call
    with CaptureQueriesContext(connection) as queries:
        seats, times, entries, none = all_together(
            (SEATS_LOCKED, (rnd.pk, table.pk)),
            (ENTRY_TIMES, (table.pk,)),
            (ENTRIES, (table.pk,)),
            (ENTRY_TIMES, (-5,)),
        )
    assert len(queries) == 1
    assert [values(s) for s in seats] == [values(s) for s in SEATS.instances(rnd.pk, table.pk)]
    assert [s.occupant_name for s in seats] == [
        s.occupant_name for s in SEATS.instances(rnd.pk, table.pk)
    ]
    assert times == ENTRY_TIMES.rows(table.pk) and len(times) >= 2
    assert [values(e) for e in entries] == [values(e) for e in ENTRIES.instances(table.pk)]
    assert none == []


@on_postgresql
def test_an_error_in_one_statement_fails_the_whole_call(ghost_round):
    broken = Compiled(
        lambda table: Entry.objects.filter(table_id=table).extra(where=["1/0 = 1"]),
        ID_MARKERS[0],
    )
    broken._more = lambda kept, compiler, queryset: kept  # past the refusal of extra()
    with pytest.raises(DataError), transaction.atomic():
        all_together((ENTRY_TIMES, (1,)), (broken, (1,)))


def test_a_write_transaction_s_reads_give_what_each_gives_alone(ghost_round):
    """``WriteBatch.read``, on either database, in either kind of transaction: each
    read's instances or rows as its own ``all`` or ``rows`` gives them, in order; its
    ``last`` statement carries the COMMIT only in a short transaction (a test's own
    transaction block is never shortened)."""
    rnd = ghost_round
    table = Table.objects.filter(night=rnd.night).order_by("number")[1]
    tap(table, 1, "points", 1)
    with write_transaction(short=True) as batch:
        seats, times = batch.read((SEATS, (rnd.pk, table.pk)), (ENTRY_TIMES, (table.pk,)))
        assert not batch.short and batch.last("SELECT 1") == "SELECT 1"
    assert [values(s) for s in seats] == [values(s) for s in SEATS.instances(rnd.pk, table.pk)]
    assert times == ENTRY_TIMES.rows(table.pk) and times


@pytest.mark.skipif(connection.vendor == "postgresql", reason="SQLite's refusal")
def test_reads_together_are_refused_on_sqlite():
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL"):
        all_together((ENTRY_TIMES, (1,)))


@on_postgresql
def test_a_short_transaction_is_refused_inside_an_atomic_block():
    """Tests run in a transaction (as any caller inside ``transaction.atomic``): a
    BEGIN and COMMIT of its own would end it, so it is refused, and ``may_shorten``
    says so."""
    assert not may_shorten()
    with pytest.raises(ImproperlyConfigured), short_transaction():
        pass


def _idle() -> bool:
    from psycopg.pq import TransactionStatus

    return connection.connection.info.transaction_status == TransactionStatus.IDLE


@on_postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ending", ["commit", "error", "no commit", "failed statement"])
def test_a_short_transaction_commits_only_what_it_commits(ghost_round, ending):
    """What a short transaction did counts only if its last statement committed it;
    whatever way its block ends, the connection is left outside any transaction. A block
    that forgot its COMMIT is an error, not a quiet loss."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    version = table.version
    move = "UPDATE nights_table SET version = version + 1 WHERE id = %s"
    raises = {
        "commit": nullcontext(),
        "error": pytest.raises(ValueError),
        "no commit": pytest.raises(TransactionManagementError, match="without its COMMIT"),
        "failed statement": pytest.raises(DataError),
    }[ending]
    with raises, short_transaction(), connection.cursor() as cursor:
        assert may_shorten()
        cursor.execute(f"BEGIN; {move}", [table.pk])
        if ending == "commit":
            cursor.execute("SELECT 1; COMMIT")
        elif ending == "error":
            raise ValueError("refused")
        elif ending == "failed statement":
            cursor.execute("SELECT 1/0; COMMIT")
    assert _idle()
    table.refresh_from_db()
    assert table.version == version + (ending == "commit")


def _backend_pid() -> int:
    """The database server's process of this thread's connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _terminate(pid: int) -> None:
    """The database server ends the connection of its process ``pid`` (a restart, an
    administrator), asked on a connection of its own."""
    other = connection.copy()
    try:
        with other.cursor() as killer:
            killer.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_short_transaction_whose_connection_is_lost_closes_it(ghost_round):
    """The database server ends the connection in the middle of the block (a restart, an
    administrator): the block's error stands, the connection is closed, and the next
    query opens a new one."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    pid = _backend_pid()
    with pytest.raises(OperationalError), short_transaction():
        with connection.cursor() as cursor:
            cursor.execute("BEGIN; SELECT 1")
        _terminate(pid)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1; COMMIT")
    assert connection.connection is None  # closed
    assert Table.objects.filter(pk=table.pk).exists()  # and the next query opens a new one


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_refusal_after_the_connection_was_lost_stands(ghost_round):
    """The block refuses (an error of its own) after the server ended the connection:
    its ROLLBACK fails, the connection is closed, and the refusal is what the caller
    gets."""
    pid = _backend_pid()
    with pytest.raises(ValueError, match="refused"), short_transaction():
        with connection.cursor() as cursor:
            cursor.execute("BEGIN; SELECT 1")
        _terminate(pid)
        raise ValueError("refused")
    assert connection.connection is None
    assert Table.objects.filter(night=ghost_round.night).exists()


@pytest.mark.parametrize(
    "options",
    [{"server_side_binding": True}, {"isolation_level": 4}],
    ids=["server-side binding", "serializable"],
)
@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_no_short_transaction_where_its_statements_would_not_go_together(options, monkeypatch):
    """Server-side binding sends one statement a message; above READ COMMITTED the reads
    after a lock would not see what it waited for: the taps take ``transaction.atomic``."""
    assert may_shorten()
    monkeypatch.setitem(connection.settings_dict, "OPTIONS", options)
    assert not may_shorten()


def _prepared_here() -> dict[str, str]:
    """The statements prepared in this connection's database session, by name."""
    with connection.connection.cursor() as cursor:  # past Django's record of queries
        cursor.execute("SELECT name, statement FROM pg_prepared_statements")
        return dict(cursor.fetchall())


def _executed(queries) -> list[str]:
    """The prepared statements that ``queries`` (as Django recorded them) ran."""
    prepared_here = _prepared_here()
    return [
        prepared_here[name]
        for statement in queries
        for name in re.findall(r"EXECUTE (bunco_\w+)", statement["sql"])
    ]


@on_postgresql
def test_a_read_is_prepared_at_its_second_run_and_gives_the_same(ghost_round):
    """The first run on a connection sends the SQL; the second prepares it and sends
    ``EXECUTE``, as every run after it: the same rows and instances each time, and the
    same number of queries to Django (the ``PREPARE`` is not one of them)."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    tap(table, 1, "points", 1)
    tap(table, 2, "miss")
    read = Compiled(lambda table: Entry.objects.filter(table_id=table), ID_MARKERS[0])
    expected = [values(e) for e in Entry.objects.filter(table=table)]
    sent = []
    for _ in range(3):
        with CaptureQueriesContext(connection) as queries:
            assert [values(e) for e in read.instances(table.pk)] == expected
            assert [e.pk for e in read.instances(-5)] == []  # other values, the same statement
        assert len(queries) == 2
        sent.append(queries[0]["sql"])
    assert not sent[0].startswith("EXECUTE")
    assert sent[1].startswith("EXECUTE bunco_") and sent[2] == sent[1]
    assert sent[1].split("(")[0].removeprefix("EXECUTE ") in _prepared_here()


@on_postgresql
def test_reads_together_a_tap_and_a_kept_board_run_prepared(ghost_round):
    """``all_together`` sends its reads' ``EXECUTE``s in its one message; a tap's insert
    (with its versions) and a kept board are prepared too, and stored as before."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    with CaptureQueriesContext(connection) as queries:
        for seat in (1, 2, 3):
            tap(table, seat, "points", 1)
    assert any("INSERT INTO" in sql and "play_entry" in sql for sql in _executed(queries))
    assert Entry.objects.filter(table=table, round=ghost_round).count() == 3
    with CaptureQueriesContext(connection) as queries:
        seats, times = all_together((SEATS, (ghost_round.pk, table.pk)), (ENTRY_TIMES, (table.pk,)))
        all_together((SEATS, (ghost_round.pk, table.pk)), (ENTRY_TIMES, (table.pk,)))
    assert queries[-1]["sql"].count("EXECUTE bunco_") == 2
    assert [s.pk for s in seats] == [s.pk for s in SEATS.instances(ghost_round.pk, table.pk)]
    assert times == ENTRY_TIMES.rows(table.pk)
    with CaptureQueriesContext(connection) as queries:
        for html in ("<p>first</p>", "<p>second</p>"):
            boards.keep(table.pk, "3.1", html)
    assert any("play_board" in sql for sql in _executed(queries))
    # None of the statements a tap or a kept board sends was refused a PREPARE.
    assert not [sql for sql in preparing._UNPREPARABLE if "play_" in sql or "nights_" in sql]
    assert Board.objects.get(table=table).html == "<p>second</p>"


@on_postgresql
def test_a_statement_postgresql_will_not_prepare_is_sent_as_it_is(ghost_round, caplog):
    """A parameter whose type PostgreSQL cannot tell: its ``PREPARE`` fails in a savepoint,
    the transaction goes on, and the statement is sent as SQL from then on."""
    sql = "SELECT %s IS NULL"
    preparing._UNPREPARABLE.discard(sql)
    with transaction.atomic():
        for _ in range(3):
            query, params = prepared(connection, sql, [None])
            assert query == sql
            with connection.cursor() as cursor:
                cursor.execute(query, params)
                assert cursor.fetchone() == (True,)
        assert Table.objects.filter(night=ghost_round.night).exists()  # the transaction works
    assert sql in preparing._UNPREPARABLE
    assert "will not prepare" in caplog.text


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_statement_prepared_in_a_rolled_back_transaction_is_still_prepared(ghost_round):
    """PostgreSQL does not roll back a ``PREPARE``: what was prepared in a transaction that
    failed runs as prepared afterwards, outside any transaction and in the next one."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    read = Compiled(lambda token: Table.objects.filter(token=token)[:1], "TOKEN")
    with pytest.raises(ValueError), transaction.atomic():
        read.instance(table.token)
        read.instance(table.token)  # prepared here
        raise ValueError("rolled back")
    with CaptureQueriesContext(connection) as queries:
        assert read.instance(table.token).pk == table.pk
        with transaction.atomic():
            assert read.instance(table.token).pk == table.pk
    assert [q["sql"].startswith("EXECUTE") for q in queries if "bunco_" in q["sql"]] == [
        True,
        True,
    ]


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_new_connection_prepares_afresh(ghost_round):
    """A connection closed (its age, a lost server) takes its prepared statements with it:
    the next one sends the SQL, then prepares it again."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    read = Compiled(lambda token: Table.objects.filter(token=token)[:1], "TOKEN")
    read.instance(table.token)
    read.instance(table.token)
    assert any(name.startswith("bunco_") for name in _prepared_here())
    connection.close()
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert read.instance(table.token).pk == table.pk
    sent = [q["sql"] for q in queries if "nights_table" in q["sql"] or "bunco_" in q["sql"]]
    assert [q.startswith("EXECUTE") for q in sent] == [False, True, True]


@on_postgresql
def test_nothing_is_prepared_when_the_setting_says_so(ghost_round, settings):
    """``DJANGO_DATABASE_PREPARE=0`` (a pooler in transaction mode): every run sends SQL."""
    settings.DATABASE_PREPARE = False
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    read = Compiled(lambda token: Table.objects.filter(token=token)[:1], "TOKEN")
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert read.instance(table.token).pk == table.pk
    assert not any(q["sql"].startswith("EXECUTE") for q in queries)


def test_nothing_is_prepared_on_sqlite_or_with_server_side_binding(monkeypatch):
    """SQLite has no ``PREPARE``; with server-side binding psycopg prepares statements."""
    if connection.vendor == "postgresql":
        connection.ensure_connection()
        monkeypatch.setitem(connection.settings_dict, "OPTIONS", {"server_side_binding": True})
    for _ in range(3):
        assert prepared(connection, "SELECT 1 WHERE 1 = %s", [1]) == (
            "SELECT 1 WHERE 1 = %s",
            [1],
        )


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_connection_lost_while_preparing_is_django_error_and_the_read_asked_again(
    ghost_round,
):
    """The server ends the connection just before a read's second run, which prepares it:
    the error is Django's, so the request's health check (``as_health_check``) closes the
    connection and asks again on a new one, as for any lost connection."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    read = Compiled(lambda token: Table.objects.filter(token=token)[:1], "TOKEN")
    read.instance(table.token)
    _terminate(_backend_pid())
    with pytest.raises(OperationalError):
        read.instance(table.token)  # its PREPARE meets the lost connection
    connection.close()
    read.instance(table.token)  # a new connection: the SQL, then the PREPARE at the next run
    _terminate(_backend_pid())
    assert as_health_check(lambda: read.instance(table.token)).pk == table.pk
    assert connection.connection is not None  # the new one the health check opened


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_refusal_first_in_an_atomic_block_leaves_it_working(ghost_round):
    """In Django's atomic block psycopg sends its BEGIN with the first statement: a
    ``PREPARE`` that is that statement, and is refused, still goes in a savepoint, and
    the block goes on."""
    sql = "SELECT %s IS NULL"
    preparing._UNPREPARABLE.discard(sql)
    with connection.cursor() as cursor:
        cursor.execute(*prepared(connection, sql, [None]))  # the first run, outside
    with transaction.atomic():
        query, params = prepared(connection, sql, [None])  # refused, first in the block
        assert query == sql
        assert Table.objects.filter(night=ghost_round.night).exists()
    assert sql in preparing._UNPREPARABLE


def _deallocated(name: str) -> None:
    with connection.connection.cursor() as cursor:  # behind the back of prepared()
        cursor.execute(f"DEALLOCATE {name}")


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_statement_the_session_lost_makes_the_connection_obsolete(ghost_round):
    """A session that lost a prepared statement (a ``DISCARD ALL``, a pooler): its
    ``EXECUTE`` fails as a database error, the connection is obsolete, and once Django
    closes it (at the request's end) the next connection prepares afresh."""
    table = Table.objects.filter(night=ghost_round.night).order_by("number")[1]
    read = Compiled(lambda token: Table.objects.filter(token=token)[:1], "TOKEN")
    read.instance(table.token)
    read.instance(table.token)
    # Its statement, and any other of the same table prepared on this connection earlier.
    names = [n for n, sql in _prepared_here().items() if "nights_table" in sql and "LIMIT" in sql]
    assert names
    for name in names:
        _deallocated(name)
    with pytest.raises(ProgrammingError):
        read.instance(table.token)
    connection.close_if_unusable_or_obsolete()
    assert connection.connection is None
    for _ in range(3):
        assert read.instance(table.token).pk == table.pk


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_plan_that_no_longer_fits_its_table_makes_the_connection_obsolete():
    """A column's type changed while the connection lived (a migration on a running
    site): PostgreSQL refuses the prepared plan ("cached plan must not change result
    type"), and the connection is made obsolete as above."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE bunco_probe (a integer)")
        for _ in range(2):
            cursor.execute(*prepared(connection, "SELECT a FROM bunco_probe WHERE a = %s", [1]))
        cursor.execute("ALTER TABLE bunco_probe ALTER COLUMN a TYPE bigint")
        with pytest.raises(NotSupportedError):
            cursor.execute(*prepared(connection, "SELECT a FROM bunco_probe WHERE a = %s", [1]))
    connection.close_if_unusable_or_obsolete()
    assert connection.connection is None  # the temporary table went with it
