"""manage.py backup and restore: a consistent dated copy, brought back only into an
empty database."""

import io
import sqlite3

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection  # noqa: F401  (the skipif conditions)

from bunco_night.groups.models import Group, Player
from bunco_night.ops import backups
from bunco_night.play.models import Entry
from tests.factories import make_group, make_night
from tests.play.helpers import play_round, start_night

pytestmark = pytest.mark.django_db(transaction=True)
sqlite_only = pytest.mark.skipif(
    "connection.vendor != 'sqlite'", reason="the SQLite backup API; PostgreSQL has its own test"
)


def played_group():
    group = make_group(name="Maple Street")
    night = make_night(group, sets=1)
    start_night(night)
    play_round(night)
    return group


def backup_to(tmp_path) -> str:
    out = io.StringIO()
    call_command("backup", "--dir", str(tmp_path), stdout=out)
    return out.getvalue().rsplit(" ", 1)[-1].strip()


def empty_the_database():
    call_command("flush", "--noinput")


@sqlite_only
def test_a_backup_is_a_dated_readable_copy_only_its_owner_can_read(tmp_path):
    played_group()
    path = backup_to(tmp_path)
    assert path.startswith(str(tmp_path / "bunco-night-20")) and path.endswith(".sqlite3")
    copy = sqlite3.connect(path)
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert copy.execute("SELECT count(*) FROM play_entry").fetchone()[0] == Entry.objects.count()
    copy.close()
    assert (tmp_path / path.rsplit("/", 1)[-1]).stat().st_mode & 0o777 == 0o600
    assert not list(tmp_path.glob("*.partial"))


@sqlite_only
def test_restore_brings_a_backup_back_into_an_empty_database(tmp_path):
    group = played_group()
    entries = Entry.objects.count()
    path = backup_to(tmp_path)
    empty_the_database()
    assert not Group.objects.exists()
    call_command("restore", path, "--noinput", stdout=io.StringIO())
    restored = Group.objects.get()
    assert restored.name == group.name and restored.players.count() == 14
    assert Entry.objects.count() == entries


def test_restore_never_touches_a_database_that_holds_data(tmp_path):
    played_group()
    path = backup_to(tmp_path)
    Player.objects.filter(name="Regular 1").update(name="Changed after the backup")
    with pytest.raises(CommandError, match="already holds data"):
        call_command("restore", path, "--noinput")
    assert Player.objects.filter(name="Changed after the backup").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is not an? "),
        (b"hello, this is not a database", "is not an? "),
        (None, "There is no file"),
    ],
)
def test_restore_refuses_what_is_not_a_backup(tmp_path, content, message):
    path = tmp_path / "backup.file"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("restore", str(path), "--noinput")


@sqlite_only
def test_restore_asks_first(tmp_path, monkeypatch):
    played_group()
    path = backup_to(tmp_path)
    empty_the_database()
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    with pytest.raises(CommandError, match="cancelled"):
        call_command("restore", path)
    assert not Group.objects.exists()


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="PostgreSQL only")
def test_postgresql_backup_and_restore_with_pg_dump(tmp_path):
    import shutil

    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    group = played_group()
    path = backup_to(tmp_path)
    assert path.endswith(".pgdump")
    empty_the_database()
    call_command("restore", path, "--noinput", stdout=io.StringIO())
    assert Group.objects.get().name == group.name


def test_the_backup_folder_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("DJANGO_BACKUP_DIR", str(tmp_path / "elsewhere"))
    assert backups.backup_dir() == tmp_path / "elsewhere"
