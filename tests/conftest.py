"""Shared fixtures: a logged-in host and their group, and a real headless Chromium.

The suite runs on SQLite and on PostgreSQL (`make test` runs both). The header names
the database; with ``BUNCO_TEST_DATABASE`` set (the Makefile sets it) the run stops at
once if the settings point at another one, so a run meant for PostgreSQL can never
pass on SQLite by mistake.
"""

import os
import shutil

import pytest

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
    vendor = {"sqlite": "sqlite", "postgresql": "postgresql"}.get(
        db["ENGINE"].rsplit(".", 1)[-1], db["ENGINE"]
    )
    where = f"{db.get('HOST')}:{db.get('PORT')}" if db.get("HOST") else "a file"
    return vendor, where


def pytest_report_header(config):
    vendor, where = _database()
    return f"database: {vendor} ({where})"


def pytest_sessionstart(session):
    expected = os.environ.get("BUNCO_TEST_DATABASE")
    vendor, where = _database()
    if expected and expected != vendor:
        raise pytest.UsageError(
            f"BUNCO_TEST_DATABASE is {expected!r} but the settings use {vendor} ({where})."
        )


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run."""
    from playwright.sync_api import expect, sync_playwright

    # Pages poll every 2 s; a busy CI machine needs more than expect's default 5 s.
    expect.set_options(timeout=15_000)

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run `make test`, which installs it.")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (its own cookies) and page, phone-sized by default."""
    context = browser.new_context(viewport={"width": 412, "height": 915})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


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
