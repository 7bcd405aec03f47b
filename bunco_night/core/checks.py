"""The site's own system checks (``manage.py check``; ``migrate`` and ``runserver`` run them)."""

import sqlite3

from django.conf import settings
from django.core.checks import Error, register

# A tap's update answers with RETURNING (play/services/changes.py): SQLite 3.35 and later.
SQLITE_NEEDED = (3, 35)


@register()
def sqlite_new_enough(app_configs, **kwargs) -> list[Error]:
    """An error when a database is SQLite older than ``SQLITE_NEEDED``."""
    engines = {db["ENGINE"] for db in settings.DATABASES.values()}
    if "django.db.backends.sqlite3" in engines and sqlite3.sqlite_version_info < SQLITE_NEEDED:
        needed = ".".join(map(str, SQLITE_NEEDED))
        return [
            Error(
                f"SQLite {needed} or later is required (this Python has {sqlite3.sqlite_version}).",
                hint="Debian 12 has 3.40; or set DATABASE_URL to a PostgreSQL database.",
                id="bunco.E001",
            )
        ]
    return []
