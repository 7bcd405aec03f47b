"""Settings for the test suite: the real settings with a throwaway key.

pytest-django's live_server does not know whitenoise's hashed file names, so
tests use plain static file storage.
"""

import os
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")
os.environ["DJANGO_PLAIN_STATIC"] = "1"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")

from .settings import *  # noqa: E402,F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",  # the demo fixture's host
]

if DATABASES["default"]["ENGINE"] == "bunco_night.core.speed.sqlite":  # noqa: F405
    # A file, not shared memory, so tests with several connections lock like production;
    # one per process, so two test runs on one machine never share it.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"bunco-test-{os.getpid()}.sqlite3")
    }

# Background print jobs write their PDFs here, one folder per test process.
PRINT_JOBS_DIR = os.path.join(tempfile.gettempdir(), f"bunco-print-jobs-{os.getpid()}")

# Tests run in transactions that never commit, so no notification would ever come: polls
# read the database. tests/play/test_listening.py turns listening on where it commits.
POLL_LISTEN = False

# Pages ask for news four times as often and TVs turn their pages faster: a test waits for
# what a poll brings (the bell, the next round, another phone's taps) and for pages to
# turn, and the product's behaviour does not depend on the pace.
POLL_SECONDS = 0.5
PAGE_TURN_SECONDS = 3.0
