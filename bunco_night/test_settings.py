"""Settings for the test suite: the real settings with a throwaway key.

pytest-django's live_server does not know whitenoise's hashed file names, so
tests use plain static file storage (PLATFORM.md).
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-not-a-secret")
os.environ["DJANGO_PLAIN_STATIC"] = "1"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,testserver")

from .settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
