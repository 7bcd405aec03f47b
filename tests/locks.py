"""Rows held by another connection while a test runs: the other side of a lock test."""

import threading
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def held_elsewhere(hold, *, commit=False):
    """``hold()`` run in a transaction on a thread of its own (so on a connection of its
    own), which stays open, with the locks ``hold`` took, until the block ends; then it is
    rolled back, or committed (``commit``). Errors on that thread fail the test."""
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
        yield
    finally:
        release.set()
        thread.join(10)
    assert not failed, failed
