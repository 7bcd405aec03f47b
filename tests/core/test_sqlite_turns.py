"""On SQLite, writers take turns at a lock file beside the database (bunco_night/core/speed/sqlite):
held from a transaction's start to its end, whatever ends it, and by every connection."""

import fcntl
import threading
import time

import pytest
from django.db import NotSupportedError, connection, connections, transaction

from bunco_night.core.speed.sqlite.base import lock_path
from bunco_night.groups.models import Group

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite only"),
]


def lock_is_free() -> bool:
    """Whether another writer could take its turn now (asked on a file of its own)."""
    with open(lock_path(connection.settings_dict["NAME"]), "ab") as other:
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(other, fcntl.LOCK_UN)
        return True


def test_a_transaction_holds_the_turn_until_it_commits():
    assert lock_is_free()
    with transaction.atomic():
        assert not lock_is_free()
        with transaction.atomic():  # a savepoint: the same turn
            Group.objects.create(name="Turns", slug="turns")
        assert not lock_is_free()
    assert lock_is_free()
    assert Group.objects.filter(slug="turns").exists()


def test_a_rolled_back_transaction_gives_up_its_turn():
    with pytest.raises(RuntimeError), transaction.atomic():
        Group.objects.create(name="Turns", slug="turns")
        assert not lock_is_free()
        raise RuntimeError("the service refused")
    assert lock_is_free() and not Group.objects.filter(slug="turns").exists()


def test_a_closed_connection_gives_up_its_turn():
    with transaction.atomic():
        Group.objects.create(name="Turns", slug="turns")
        assert not lock_is_free()
        connection.close()  # a worker's connection lost mid-request
        assert lock_is_free()
    assert not Group.objects.filter(slug="turns").exists()


def test_a_second_writer_waits_for_the_first_then_goes():
    order = []
    inside = threading.Event()

    def second():
        try:
            inside.wait(5)
            with transaction.atomic():
                order.append("second began")
                Group.objects.create(name="Second", slug="second")
        finally:
            connections.close_all()

    thread = threading.Thread(target=second, daemon=True)
    thread.start()
    with transaction.atomic():
        Group.objects.create(name="First", slug="first")
        inside.set()
        thread.join(0.3)  # the second is waiting for its turn, not failing
        assert thread.is_alive() and order == []
        order.append("first done")
    thread.join(5)
    assert order == ["first done", "second began"]
    assert set(Group.objects.values_list("slug", flat=True)) >= {"first", "second"}


def test_a_writer_waits_no_longer_than_the_database_s_timeout(monkeypatch):
    """A transaction left open must not stop every writer for ever: after ``timeout`` the
    writer goes on to SQLite's own wait (which fails as "database is locked" if SQLite's
    lock is taken too; here only the turn is)."""
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "timeout", 0.3)
    with open(lock_path(connection.settings_dict["NAME"]), "ab") as other:
        fcntl.flock(other, fcntl.LOCK_EX)  # someone holds the turn and never gives it up
        started = time.monotonic()
        with transaction.atomic():
            Group.objects.create(name="Late", slug="late")
        waited = time.monotonic() - started
    assert 0.3 <= waited < 5
    assert Group.objects.filter(slug="late").exists() and lock_is_free()


def test_an_sqlite_without_update_returning_is_refused(monkeypatch):
    """A tap's update answers with RETURNING (SQLite 3.35 and later): an older SQLite is
    refused when the site connects, with Django's message naming the version needed."""
    monkeypatch.setattr(connections["default"], "get_database_version", lambda: (3, 34, 1))
    with pytest.raises(NotSupportedError, match="3.35 or later is required"):
        connections["default"].check_database_version_supported()
