"""Poll versions kept in each web process while PostgreSQL says nothing changed.

A thread per process LISTENs on ``bunco_polls`` (NOTIFY triggers: migration ``nights``
0009); a notification forgets what was read from its row, a read overtaken by one is not
kept, and memory answers only for ``LIVE_FOR`` seconds after the listener's own beat came
back. Off on SQLite, and with ``DJANGO_POLL_LISTEN=0``. Why and how: docs/architecture.md,
"Where speed lives".
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Hashable

from django.conf import settings

log = logging.getLogger(__name__)

CHANNEL = "bunco_polls"
EVERYTHING = "*"  # a notification that forgets all (a table emptied by TRUNCATE)
BEAT = "beat "  # a listener's notification to itself (every process hears all of them)
HEARTBEAT = 2.0  # seconds between beats
LIVE_FOR = 5.0  # memory answers only this long after a beat that came back was sent
# The beat, and the triggers of migration nights 0009 (three tables, two each) enabled.
BEAT_SQL = (
    "SELECT pg_notify(%s, %s), (SELECT count(*) FROM pg_trigger WHERE tgname IN "
    "('bunco_polls_row', 'bunco_polls_all') AND tgenabled IN ('O', 'A'))"
)
TRIGGERS = 6
APPLICATION_NAME = "bunco-polls-listen"
MOST_KEPT = 50_000  # past this many answers kept, start again (old nights' links)


class Heard:
    """Versions read by polls, forgotten as notifications on ``CHANNEL`` arrive.

    ``connect`` opens a new autocommit database connection (psycopg's); ``clock`` is
    ``time.monotonic`` but for tests.
    """

    def __init__(
        self,
        connect: Callable[[], object],
        heartbeat: float = HEARTBEAT,
        live_for: float = LIVE_FOR,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._connect = connect
        self.heartbeat = heartbeat
        self.live_for = live_for
        self._clock = clock
        self._lock = threading.Lock()
        self._known: dict[Hashable, tuple[str, tuple[str, ...]]] = {}
        self._by_row: dict[str, set[Hashable]] = {}
        self._alive_until = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._said_missing = False
        self.epoch = 0

    # -- what the polls ask ------------------------------------------------------------

    def answering(self) -> bool:
        """Whether memory answers now: listening, and heard from within ``live_for``."""
        return self._clock() < self._alive_until

    def version(self, key: Hashable) -> str | None:
        """The version kept for ``key``, or None: nothing kept, or not listening now."""
        if not self.answering():
            return None
        hit = self._known.get(key)
        return None if hit is None else hit[0]

    def keep(self, key: Hashable, version: str, rows: tuple[str, ...], epoch: int) -> None:
        """Keep ``version`` for ``key``, read from ``rows`` ("t12": table 12) by a read
        that began at ``epoch``, unless a notification came meanwhile."""
        with self._lock:
            if epoch != self.epoch or not self.answering():
                return
            if len(self._known) >= MOST_KEPT:
                self._forget_all()
            self._drop(key)
            self._known[key] = (version, rows)
            for row in rows:
                self._by_row.setdefault(row, set()).add(key)

    # -- what the listener hears -------------------------------------------------------

    def hear(self, row: str) -> None:
        """A notification: forget what was read from ``row`` (or everything)."""
        with self._lock:
            self.epoch += 1
            if row == EVERYTHING:
                self._forget_all()
            for key in self._by_row.pop(row, ()):
                self._drop(key)

    def alive(self, since: float) -> None:
        """A beat sent at ``since`` (this clock) came back: every change committed before
        it has been heard, so memory may answer until ``live_for`` after it."""
        with self._lock:
            self._alive_until = max(self._alive_until, since + self.live_for)

    def deaf(self) -> None:
        """Notifications may be missed (the connection lost, the triggers missing): answer
        nothing from memory, and forget it all."""
        with self._lock:
            self.epoch += 1
            self._alive_until = 0.0
            self._forget_all()

    def _drop(self, key: Hashable) -> None:
        old = self._known.pop(key, None)
        for row in old[1] if old else ():
            keys = self._by_row.get(row)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_row[row]

    def _forget_all(self) -> None:
        self._known.clear()
        self._by_row.clear()

    # -- the listener thread -----------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="bunco-polls-listen", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop listening and close the connection (within a heartbeat, or the connection's
        timeouts when the network has gone)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.deaf()

    def _run(self) -> None:
        pause, beats = 0.5, itertools.count()
        mine = f"{BEAT}{os.getpid()}.{id(self)}."
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        beat, since = f"{mine}{next(beats)}", self._clock()
                        triggers = conn.execute(BEAT_SQL, [CHANNEL, beat]).fetchone()[1]
                        for note in conn.notifies(timeout=self.heartbeat):
                            if note.payload == beat:
                                if triggers == TRIGGERS:
                                    self.alive(since)
                                    pause, self._said_missing = 0.5, False
                                else:
                                    self._missing(triggers)
                            elif not note.payload.startswith(BEAT):
                                self.hear(note.payload)
            except Exception as error:  # any failure: answer from the database until back
                log.warning("Poll notifications lost (%s); polls read the database.", error)
            self.deaf()
            self._stop.wait(pause)
            pause = min(pause * 2, 30.0)

    def _missing(self, triggers: int) -> None:
        if not self._said_missing:  # once, not every heartbeat
            log.warning(
                "%s of the %s poll triggers are in place (migrate?); polls read the database.",
                triggers,
                TRIGGERS,
            )
            self._said_missing = True
        self.deaf()


_heard: Heard | None = None
_heard_pid: int | None = None
_starting = threading.Lock()


def heard() -> Heard | None:
    """This process's ``Heard``, started at its first use; None where ``POLL_LISTEN`` is off.

    A process forked from one that was listening starts its own (gunicorn's workers)."""
    global _heard, _heard_pid
    if not settings.POLL_LISTEN:
        return None
    if _heard is not None and _heard_pid == os.getpid():
        return _heard
    with _starting:
        if _heard is None or _heard_pid != os.getpid():
            _heard, _heard_pid = Heard(_connect_listener), os.getpid()
            _heard.start()
    return _heard


def stop_listening() -> None:
    """Stop this process's listener, if any (tests, before their database goes)."""
    global _heard
    with _starting:
        if _heard is not None and _heard_pid == os.getpid():
            _heard.stop()
        _heard = None


def _connect_listener():
    """A new autocommit connection to the database Django's default connection uses."""
    import psycopg
    from django.db import connection

    # A network that goes silent fails the connection within seconds, not the kernel's
    # quarter of an hour (memory stops answering LIVE_FOR after the last beat anyway).
    return psycopg.connect(
        **connection.get_connection_params(),
        autocommit=True,
        application_name=APPLICATION_NAME,  # as pg_stat_activity shows it
        connect_timeout=5,
        keepalives=1,
        keepalives_idle=5,
        keepalives_interval=2,
        keepalives_count=2,
        tcp_user_timeout=int(LIVE_FOR * 1000),
    )
