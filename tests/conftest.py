"""Shared fixtures: a logged-in host and their group, and a real headless Chromium.

The suite runs on SQLite and on PostgreSQL (`make test` runs both). The header names
the database; with ``BUNCO_TEST_DATABASE`` set (the Makefile sets it) the run stops at
once if the settings point at another one, so a run meant for PostgreSQL can never
pass on SQLite by mistake.
"""

import contextlib
import datetime as dt
import os
import shutil
import signal
import sys
import threading
import warnings

import pytest
from django.utils import timezone

from tests import search
from tests.factories import make_group, make_user

# Playwright's sync API runs an event loop; the Django ORM in the same test needs this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _database() -> tuple[str, str]:
    from django.conf import settings

    db = settings.DATABASES["default"]
    vendor = {"sqlite3": "sqlite", "postgresql": "postgresql"}.get(
        db["ENGINE"].rsplit(".", 1)[-1], db["ENGINE"]
    )
    where = f"{db.get('HOST')}:{db.get('PORT')}" if db.get("HOST") else "a file"
    return vendor, where


def pytest_report_header(config):
    vendor, where = _database()
    lines = [f"database: {vendor} ({where})", f"hypothesis: {search.DEPTH_NAME} search"]
    if config.getoption("second_database"):
        lines.append(
            "second database: only what touches the database; browser tests only where "
            "marked both_databases"
        )
    return lines


def pytest_addoption(parser):
    parser.addoption(
        "--second-database",
        action="store_true",
        dest="second_database",
        help="The run on the second database (make test-postgres): only the tests that touch "
        "the database, and of the browser tests only those marked both_databases.",
    )


# What gives a test the database, besides the django_db mark.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
    "admin_user",
    "admin_client",
    "django_user_model",
}


def tells_of_the_database(item) -> bool:
    """A test worth running on the second database: it touches the database and, if it drives
    a browser, what it checks is the database's behaviour (marked both_databases)."""
    touches = item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )
    if item.get_closest_marker("browser") is not None:
        return touches and item.get_closest_marker("both_databases") is not None
    return touches


def pytest_collection_modifyitems(config, items):
    if not config.getoption("second_database"):
        return
    kept = [item for item in items if tells_of_the_database(item)]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in set(kept)])
        items[:] = kept


def pytest_sessionstart(session):
    expected = os.environ.get("BUNCO_TEST_DATABASE")
    vendor, where = _database()
    if expected and expected != vendor:
        raise pytest.UsageError(
            f"BUNCO_TEST_DATABASE is {expected!r} but the settings use {vendor} ({where})."
        )


# A browser test still running after this many seconds is hung (the slowest take about a
# minute on a busy machine). Some Playwright calls have no timeout of their own (opening
# and closing a context, opening a page), and a Chromium that stops answering one would
# hold the whole run until faulthandler ends it: the watchdog below stops Chromium
# instead, so the hung call raises, that one test fails with its name, and the next
# browser test gets a new Chromium.
BROWSER_TEST_LIMIT = float(os.environ.get("BUNCO_BROWSER_TEST_LIMIT", "300"))


def _chromium_processes() -> list[int]:
    """The Chromium processes this test process started (through Playwright's driver)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if comm.read().strip() == "chromium":
                    found.append(pid)
        except OSError:
            continue
    return found


def _stop_hung_chromium(test: str, what: str = "", limit: float = BROWSER_TEST_LIMIT) -> None:
    print(
        f"\n{test} ran over {limit:g} s{what}: a call to Chromium is hung; "
        "stopping Chromium (the next browser test starts a new one).",
        file=sys.__stderr__,
        flush=True,
    )
    for pid in _chromium_processes():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# Closing a test's browser contexts once took until the watchdog above stopped Chromium
# (five minutes, then an error at teardown of a test that had passed): seen in full runs on
# PostgreSQL after the timed round's test, and not when that test ran alone. A close that
# takes longer than this stops Chromium at once, and the test's teardown says so as a
# warning: what the test checked in the pages has passed, and the next test gets a new
# Chromium.
CONTEXT_CLOSE_LIMIT = float(os.environ.get("BUNCO_CONTEXT_CLOSE_LIMIT", "30"))


def close_contexts(contexts, test: str, *, limit: float = CONTEXT_CLOSE_LIMIT, stop=None) -> None:
    """Close ``contexts``, stopping Chromium (``stop``, by default ``_stop_hung_chromium``)
    when that takes longer than ``limit`` seconds."""
    stopped = threading.Event()

    def stop_now():
        stopped.set()
        (stop or _stop_hung_chromium)(test, " closing its browser contexts", limit)

    timer = threading.Timer(limit, stop_now)
    timer.daemon = True
    timer.start()
    try:
        for context in contexts:
            try:
                context.close()
            except Exception:
                if not stopped.is_set():
                    raise
                warnings.warn(
                    f"{test}: closing a browser context hung for {limit:g} s; Chromium was "
                    "stopped and starts again for the next browser test.",
                    stacklevel=1,
                )
                return
    finally:
        timer.cancel()


class _Chromium:
    """The run's headless Chromium, launched again if the watchdog had to stop it."""

    def __init__(self, playwright):
        self.playwright = playwright
        self.browser = None

    def get(self):
        if self.browser is None or not self.browser.is_connected():
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
        return self.browser


@pytest.fixture(scope="session")
def _chromium():
    from playwright.sync_api import expect, sync_playwright

    # Pages poll every 2 s; a busy CI machine needs more than expect's default 5 s.
    expect.set_options(timeout=15_000)

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run `make test`, which installs it.")
    with sync_playwright() as p:
        chromium = _Chromium(p)
        yield chromium
        if chromium.browser is not None and chromium.browser.is_connected():
            chromium.browser.close()


@pytest.fixture
def browser(_chromium, request):
    """One headless Chromium for the whole run, watched while this test uses it."""
    watchdog = threading.Timer(BROWSER_TEST_LIMIT, _stop_hung_chromium, (request.node.nodeid,))
    watchdog.daemon = True
    watchdog.start()
    yield _chromium.get()
    watchdog.cancel()


@pytest.fixture
def page(browser, request):
    """A fresh browser context (its own cookies) and page, phone-sized by default."""
    context = browser.new_context(viewport={"width": 412, "height": 915})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    close_contexts([context], request.node.nodeid)


@pytest.fixture
def contexts(browser, request):
    """New browser contexts (one per person), closed before the database goes away."""
    made = []

    def new(**kwargs):
        context = browser.new_context(**kwargs)
        made.append(context)
        return context

    yield new
    close_contexts(made, request.node.nodeid)


@pytest.fixture
def host(client):
    """A host, logged in on the test client."""
    user = make_user()
    client.force_login(user)
    return user


@pytest.fixture
def group(host):
    """The host's group: 12 regulars and 2 substitutes on the house rules."""
    return make_group(user=host, name="Maple Street Bunco")


# The day the tests' dates were written. The tests plan nights on fixed dates, and the site
# reads its today from ``timezone.localdate()`` (upcoming nights, a player's own page, a
# planned date that may be a slip): every test runs on this day, whatever the calendar says.
TESTS_TODAY = dt.date(2026, 11, 27)


def today_is(monkeypatch, day: dt.date) -> None:
    """Make ``day`` today for the site and the test: ``timezone.localdate()`` answers it."""
    real = timezone.localdate

    def localdate(value=None, timezone=None):
        return day if value is None else real(value, timezone)

    monkeypatch.setattr(timezone, "localdate", localdate)


@pytest.fixture(autouse=True)
def _today(monkeypatch):
    today_is(monkeypatch, TESTS_TODAY)
