"""Rows held by another connection while a test runs: the other side of a lock test."""

import threading
import time
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def held_elsewhere(hold, *, commit=False):
    """``hold()`` run in a transaction on a thread of its own (so on a connection of its
    own), which stays open, with the locks ``hold`` took, until the block ends, or until
    the block calls what this yields (so that a write waiting for those locks, such as
    ``host_waiting``'s, goes on inside the block); then it is rolled back, or committed
    (``commit``). Errors on that thread fail the test."""
    held, release, failed = threading.Event(), threading.Event(), []

    def other():
        try:
            with transaction.atomic():
                hold()
                held.set()
                release.wait(10)
                transaction.set_rollback(not commit)
        except Exception as error:  # noqa: BLE001 - reported below
            failed.append(error)
            held.set()
        finally:
            connection.close()

    thread = threading.Thread(target=other)
    thread.start()
    try:
        assert held.wait(10) and not failed, failed
        yield release.set
    finally:
        release.set()
        thread.join(10)
    assert not failed, failed


@contextmanager
def host_waiting(service, **kwargs):
    """The host's ``service`` called on its own connection, found waiting for a lock (one
    a write in progress elsewhere holds, such as a tap's) at the start of the block and
    finished at its end (the block lets the other write go on: ``held_elsewhere``). Yields
    a list that holds what ``service`` returned once the block ends; its errors are raised.
    PostgreSQL only: the wait is seen in ``pg_stat_activity``."""
    failed, answer = [], []

    def host():
        try:
            answer.append(service(**kwargs))
        except Exception as error:  # noqa: BLE001 - raised below
            failed.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=host)
    thread.start()
    deadline = time.monotonic() + 10
    while thread.is_alive() and not _waiting_for_a_lock() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert thread.is_alive() and _waiting_for_a_lock() and not failed, failed
    yield answer
    thread.join(10)
    assert not thread.is_alive() and not failed, failed


def _waiting_for_a_lock() -> bool:
    """Whether a connection to the test database waits for a lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock')"
        )
        return cursor.fetchone()[0]
