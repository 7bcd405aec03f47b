"""gunicorn settings for `make run`: a party night of 600+ phones polling every 2 s.

`make run` gives --bind and --access-logfile on the command line (they win over this
file). bench/party_bench.py serves the site with this file too; the figures behind each
choice are in bench/README.md.

The access log never records the secret part of table, player, invitation and
password-reset links: every value a log line can show (the request line, the path,
the referrer of a phone's poll, a redirect's Location) goes through
``bunco_night.core.logging.redact``.
"""

import contextlib
import os

from gunicorn.glogging import Logger

from bunco_night.core.logging import redact


class RedactingLogger(Logger):
    """gunicorn's logger with secret links redacted in the access log."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}

    def info(self, msg, *args, **kwargs):
        """gunicorn's start line, with the addresses it leaves out under ``reuse_port``:
        each worker opens its own socket, so the arbiter holds none, and the line read
        "Listening at:  (pid)"."""
        if msg == "Listening at: %s (%s)" and args and not args[0]:
            args = (listening_at(self.cfg), *args[1:])
        super().info(msg, *args, **kwargs)


def listening_at(cfg):
    """The addresses gunicorn binds, as it names a socket: ``http://host:port``."""
    scheme = "https" if cfg.is_ssl else "http"
    where = []
    for address in cfg.address:
        if isinstance(address, str | bytes):
            where.append(f"unix:{os.fsdecode(address)}")
        else:
            host, port = address[:2]
            where.append(
                f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"
            )
    return ",".join(where)


# `make run` turns the access log on (--access-logfile -); the benches leave it off.
logger_class = RedactingLogger


def _site_time_zone() -> None:
    """Log in the site's time zone in the arbiter too. Each worker loads the site's
    settings, and Django then sets the process's time zone (``TZ``) to ``TIME_ZONE``; the
    arbiter never loaded them, so its lines were stamped in the machine's zone beside its
    workers' (``+0000`` next to ``-0600``). Loading the settings here does the same for
    the arbiter, before its first line."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bunco_night.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    # Settings that will not load (no secret key) fail each worker too, whose log says why.
    with contextlib.suppress(ImproperlyConfigured):
        settings.TIME_ZONE  # noqa: B018 (the first read loads the settings, which set TZ)


_site_time_zone()

# A worker process runs Python on one core at a time (the GIL), so only processes use
# both cores of a small laptop. One more worker than cores: while one renders the host's
# board (about 0.17 s for 125 tables) or waits for SQLite's write lock, the cores still
# have phones to answer. WEB_CONCURRENCY overrides, as it does for gunicorn's default.
workers = int(os.environ.get("WEB_CONCURRENCY", (os.cpu_count() or 2) + 1))

# Threads, so a kept-alive connection or a slow phone on the Wi-Fi does not hold a whole
# process (4 sync workers fell 13-37 s behind at the party: each stalled in turn on a board
# render or a wait for SQLite's write lock). Eight a worker, because gthread gives every
# new connection a thread that waits up to 5 s for its request: a browser's preconnects
# that never send hold threads that long (bench/idle_connections.py: with 2 or 4 threads
# a worker, 6 idle connections held up other requests 4.7-5 s; with 8, 12 held up
# nothing). More threads cost no more CPU at the party (2.2-2.5 ms a request with 2, 4
# or 8) and kept up no worse on a busy machine.
worker_class = "gthread"
threads = 8

# Phones poll every 2 s. gunicorn's default keep-alive, 2 s, closes an idle connection
# just as the next poll comes, so phones would reconnect for many polls (and now and then
# send on a connection being closed). 5 s keeps one connection per phone all night.
keepalive = 5

# Each worker gets its own listening socket and the kernel spreads new connections evenly
# across them. With one shared socket, whichever worker woke first took the connection,
# and with keep-alive the phone stayed with it: one of two workers held two thirds of the
# phones and, being one process, could use at most one core while the other one idled.
# (SO_REUSEPORT also lets a second `make run` on the same port start and share the
# traffic instead of failing: both serve the same database, so nothing goes wrong.)
reuse_port = True

# Pending connections the kernel keeps for each listening socket: a room of phones that
# all reconnect at once after a Wi-Fi drop is about 600, well under gunicorn's default.
backlog = 2048

# Connections one worker keeps open, kept-alive ones included (gunicorn's default): with
# 3 workers, 3,000 phones.
worker_connections = 1000


def post_worker_init(worker):
    """Before a worker takes its first request: import every view, compile the
    templates, and set what the worker holds aside from the cycle collector, so its full
    collections no longer hold every thread for about 0.1 s (bunco_night/core/speed/warm.py)."""
    from bunco_night.core.speed.warm import warm_up_and_freeze

    warm_up_and_freeze()
