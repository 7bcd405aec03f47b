"""SQLite, with writers taking turns at a lock file instead of at SQLite's sleeps.

Every transaction (IMMEDIATE) first takes an exclusive ``flock`` on a file beside the
database, retrying every 2 ms, for at most the database's ``timeout``; then SQLite's own
wait applies. Where the file cannot be opened, SQLite alone makes writers wait.
Why: docs/architecture.md, "Where speed lives".
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time

from django.db.backends.sqlite3 import base, creation, features

# Beside the database file: "db.sqlite3" takes turns at "db.sqlite3-writers".
LOCK_SUFFIX = "-writers"

# The waits between tries for the lock, in seconds: short at first, then every 2 ms.
TRIES = (0.0002, 0.0005, 0.001)
EVERY = 0.002


def lock_path(name: str) -> str:
    return f"{name}{LOCK_SUFFIX}"


def take(fd: int, timeout: float) -> bool:
    """Take the exclusive lock on ``fd`` within ``timeout`` seconds; whether it was taken."""
    deadline = time.monotonic() + timeout
    waits = iter(TRIES)
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(next(waits, EVERY))


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name, verbosity):
        super()._destroy_test_db(test_database_name, verbosity)
        if not self.is_in_memory_db(test_database_name):
            with contextlib.suppress(FileNotFoundError):
                os.remove(lock_path(test_database_name))


class DatabaseFeatures(features.DatabaseFeatures):
    # UPDATE ... RETURNING (a tap's update says whether late taps wait at its table,
    # bunco_night/play/services/changes.py) came with SQLite 3.35; Debian 12 has 3.40.
    minimum_database_version = (3, 35)


class DatabaseWrapper(base.DatabaseWrapper):
    creation_class = DatabaseCreation
    features_class = DatabaseFeatures
    _lock_fd: int | None = None  # opened with the connection's first transaction
    _holds_lock = False

    def _take_turn(self) -> None:
        if self._holds_lock or self.is_in_memory_db():
            return
        if self._lock_fd is None:
            try:
                # Read-only: flock needs no more, and a file made by another user will do.
                self._lock_fd = os.open(
                    lock_path(self.settings_dict["NAME"]), os.O_RDONLY | os.O_CREAT, 0o644
                )
            except OSError:
                return
        timeout = self.settings_dict["OPTIONS"].get("timeout", 5)
        self._holds_lock = take(self._lock_fd, timeout)

    def _end_turn(self) -> None:
        if self._holds_lock:
            self._holds_lock = False
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

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
            if self._lock_fd is not None:
                os.close(self._lock_fd)  # and with it the lock, if held
                self._lock_fd = None
