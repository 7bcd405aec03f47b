"""SQLite, with writers taking turns at a lock file instead of at SQLite's sleeps.

SQLite lets one writer at a time. One that finds the write lock taken sleeps and tries
again, 1, 2, 5, 10, 15, 20, 25... ms later (``sqlite3_busy_timeout``), so on a busy night
a tap that waits for another tap's few milliseconds often sleeps for tens of them, and
with many waiting, hundreds. Here every transaction (``transaction_mode`` is IMMEDIATE:
each one may write) first takes an exclusive ``flock`` on a file beside the database,
and the kernel wakes the next writer the moment the last one is done. Every process of
the site (each gunicorn worker, each thread's connection, manage.py) takes it the same
way. SQLite's own lock still guards the data: a writer that does not take this lock
(the sqlite3 shell) is only slower to get its turn.
"""

from __future__ import annotations

import fcntl

from django.db.backends.sqlite3 import base

# Beside the database file: "db.sqlite3" takes turns at "db.sqlite3-writers".
LOCK_SUFFIX = "-writers"


class DatabaseWrapper(base.DatabaseWrapper):
    _lock_file = None  # opened with the connection's first transaction, kept until it closes
    _holds_lock = False

    def _take_turn(self) -> None:
        if self._holds_lock or self.is_in_memory_db():
            return
        if self._lock_file is None:
            self._lock_file = open(f"{self.settings_dict['NAME']}{LOCK_SUFFIX}", "ab")  # noqa: SIM115
        fcntl.flock(self._lock_file, fcntl.LOCK_EX)  # waits, without the GIL
        self._holds_lock = True

    def _end_turn(self) -> None:
        if self._holds_lock:
            self._holds_lock = False
            fcntl.flock(self._lock_file, fcntl.LOCK_UN)

    def _start_transaction_under_autocommit(self):
        self._take_turn()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_turn()
            raise

    def _commit(self):
        try:
            super()._commit()
        finally:
            self._end_turn()

    def _rollback(self):
        try:
            super()._rollback()
        finally:
            self._end_turn()

    def _close(self):
        try:
            super()._close()
        finally:
            self._holds_lock = False
            if self._lock_file is not None:
                self._lock_file.close()  # and with it the lock, if held
                self._lock_file = None
