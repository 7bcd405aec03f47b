"""A consistent copy of the database in a dated file (SQLite's online backup, or ``pg_dump``),
and a restore, only ever into an empty database."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import connection
from django.utils import timezone

SQLITE_HEADER = b"SQLite format 3\x00"
# The apps whose rows make a database "hold data".
DATA_APPS = ("groups", "nights", "play", "accounts")


class BackupError(Exception):
    """A backup or restore that cannot be done, with what to do about it."""


def backup_dir() -> Path:
    """Where backups go: DJANGO_BACKUP_DIR, else ``backups/`` beside manage.py."""
    return Path(os.environ.get("DJANGO_BACKUP_DIR") or Path(settings.BASE_DIR) / "backups")


def dated_name(vendor: str) -> str:
    """bunco-night-2026-12-05-183000.sqlite3 (or .pgdump)."""
    suffix = "sqlite3" if vendor == "sqlite" else "pgdump"
    return f"bunco-night-{timezone.localtime():%Y-%m-%d-%H%M%S}.{suffix}"


def backup(directory: Path | None = None) -> Path:
    """Write a consistent copy of the database to a new dated file and return its path."""
    directory = Path(directory or backup_dir())
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / dated_name(connection.vendor)
    if target.exists():
        raise BackupError(f"{target} already exists: wait a second and try again.")
    partial = target.with_name(target.name + ".partial")
    try:
        if connection.vendor == "sqlite":
            _sqlite_backup(partial)
        elif connection.vendor == "postgresql":
            _pg_dump(partial)
        else:
            raise BackupError(f"Backups of a {connection.vendor} database are not supported.")
        # The copy holds phone numbers, e-mails and password hashes: owner only.
        partial.chmod(0o600)
        partial.rename(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _sqlite_backup(path: Path) -> None:
    connection.ensure_connection()
    out = sqlite3.connect(path)
    try:
        with out:
            connection.connection.backup(out)
    finally:
        out.close()


def _pg_env() -> tuple[list[str], dict]:
    db = settings.DATABASES["default"]
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [flag, str(db[key])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _pg_tool(name: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        raise BackupError(
            f"{name} is not installed: install PostgreSQL's client tools "
            "(apt-get install postgresql-client) and run this again."
        )
    return tool


def _run(command: list[str], env: dict) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def _pg_dump(path: Path) -> None:
    args, env = _pg_env()
    name = settings.DATABASES["default"]["NAME"]
    _run([_pg_tool("pg_dump"), "--format=custom", "--no-owner", *args, f"--file={path}", name], env)


def holds_data() -> bool:
    """Whether the database has any group, night, score, invitation or user in it."""
    tables = set(connection.introspection.table_names())
    models = [m for m in apps.get_models() if m._meta.app_label in DATA_APPS]
    models.append(apps.get_model(settings.AUTH_USER_MODEL))
    return any(m._meta.db_table in tables and m.objects.exists() for m in models)


def check_backup_file(path: Path) -> None:
    """Refuse a file that is not a backup this database can take."""
    if not path.is_file():
        raise BackupError(f"There is no file {path}.")
    with path.open("rb") as f:
        head = f.read(len(SQLITE_HEADER))
    if connection.vendor == "sqlite":
        if head != SQLITE_HEADER:
            raise BackupError(f"{path} is not an SQLite backup.")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = source.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            tables = {r[0] for r in source.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} cannot be read: {error}.") from None
        finally:
            source.close()
        if not ok or "django_migrations" not in tables:
            raise BackupError(f"{path} is damaged or is not a Bunco Night backup.")
    elif connection.vendor == "postgresql" and not head.startswith(b"PGDMP"):
        raise BackupError(f"{path} is not a PostgreSQL backup made by manage.py backup.")


def check_empty() -> None:
    """Refuse a database that holds data: a restore never overwrites a group's data."""
    if holds_data():
        raise BackupError(
            "This database already holds data: restore only into an empty database "
            "(a new DATABASE_URL, or move db.sqlite3 aside first). Nothing was changed."
        )


def restore(path: Path) -> None:
    """Bring the backup at ``path`` back into this (empty) database."""
    path = Path(path)
    check_backup_file(path)
    check_empty()
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    elif connection.vendor == "postgresql":
        args, env = _pg_env()
        name = settings.DATABASES["default"]["NAME"]
        connection.close()
        _run(
            [
                _pg_tool("pg_restore"),
                "--no-owner",
                "--clean",
                "--if-exists",
                "--single-transaction",
                *args,
                f"--dbname={name}",
                str(path),
            ],
            env,
        )
    else:
        raise BackupError(f"Restoring a {connection.vendor} database is not supported.")
