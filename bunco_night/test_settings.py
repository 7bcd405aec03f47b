"""Settings for the test suite: the real ones with a throwaway key, and plain static files
(live_server knows no hashed names)."""

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

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file per process, so several connections lock as in production.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"bunco-test-{os.getpid()}.sqlite3")
    }

# Background print jobs write their PDFs here, one folder per test process.
PRINT_JOBS_DIR = os.path.join(tempfile.gettempdir(), f"bunco-print-jobs-{os.getpid()}")

# Tests never commit, so no notification would come (tests/play/test_listening.py).
POLL_LISTEN = False

# Faster polls and page turns, so browser tests wait less.
POLL_SECONDS = 0.5
PAGE_TURN_SECONDS = 3.0
