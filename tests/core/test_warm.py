"""A gunicorn worker made ready before its first request, its lasting objects frozen
(bunco_night/core/speed/warm.py)."""

import copy
import gc
import logging
import subprocess
import sys
import weakref
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.template.loaders.filesystem import Loader as FileLoader
from django.test import override_settings

from bunco_night.core.speed import warm

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def unfrozen():
    """Give the test process's frozen objects back to the collector afterwards."""
    yield
    gc.unfreeze()


@pytest.fixture
def fresh_engines():
    """Django's template engines made afresh, nothing compiled yet (earlier tests may
    have filled the cached loader); yields the project's engine."""
    with override_settings(TEMPLATES=copy.deepcopy(settings.TEMPLATES)):
        yield engines["django"]


def test_every_project_template_is_compiled_and_kept(fresh_engines, monkeypatch):
    warmed = warm.warm_up()
    folder = ROOT / "templates"
    on_disk = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert "core/sw.js" in on_disk and "accounts/invitation_email.txt" in on_disk
    assert sorted(warmed) == on_disk

    def no_disk(self, origin):
        raise AssertionError(f"{origin.name} read from disk after the warm-up")

    monkeypatch.setattr(FileLoader, "get_contents", no_disk)
    for name in on_disk:
        assert fresh_engines.get_template(name) is not None


VIEWS = sorted(
    p.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
    for p in ROOT.glob("bunco_night/*/views.py")
)


def test_every_view_module_is_imported_by_the_warm_up():
    """In a fresh interpreter, as a gunicorn worker is: none of the views are imported
    by Django's set-up alone, and all of them are after the warm-up."""
    script = f"""
import sys, django
django.setup()
views = {VIEWS!r}
print(sorted(v for v in views if v in sys.modules))
from bunco_night.core.speed import warm
warm.warm_up()
print(sorted(v for v in views if v in sys.modules))
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_SETTINGS_MODULE": "bunco_night.settings",
            "DJANGO_DEBUG": "1",
        },
        check=True,
    )
    before, after = done.stdout.splitlines()[-2:]
    assert len(VIEWS) >= 10
    assert before == "[]"
    assert after == repr(VIEWS)


def test_a_template_that_does_not_compile_is_logged_and_the_rest_are_warmed(tmp_path, caplog):
    (tmp_path / "good.html").write_text("<p>{{ name }}</p>")
    (tmp_path / "bad.html").write_text("{% if %}")
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path]
    with override_settings(TEMPLATES=templates), caplog.at_level(logging.ERROR, warm.__name__):
        assert warm.warm_up() == ["good.html"]
    assert "Template bad.html could not be compiled" in caplog.text


def test_what_the_process_holds_is_frozen_and_what_comes_later_is_not(unfrozen):
    kept = [object() for _ in range(3)]
    frozen = warm.warm_up_and_freeze()
    # What it answers is the number frozen. Meanwhile another thread of the test process
    # (a live server's, a database listener's) may free a frozen object, never add one.
    assert 0 < frozen - 100 <= gc.get_freeze_count() <= frozen
    # Frozen objects are in no generation the collector walks.
    assert not any(o is kept for o in gc.get_objects())
    later = [object()]
    assert any(o is later for o in gc.get_objects())


def test_what_the_warm_up_makes_is_frozen(fresh_engines, unfrozen):
    warm.warm_up_and_freeze()
    compiled = fresh_engines.get_template("base.html").template
    assert not any(o is compiled for o in gc.get_objects())


def test_garbage_is_collected_before_the_freeze(unfrozen, monkeypatch):
    """A reference cycle dropped before the freeze is freed, not frozen for good."""
    monkeypatch.setattr(warm, "warm_up", list)

    class Node:
        pass

    gc.disable()
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        dead = weakref.ref(a)
        del a, b
        assert dead() is not None  # only the collector frees a cycle
        warm.warm_up_and_freeze()
        assert dead() is None
    finally:
        gc.enable()


def test_gunicorn_warms_and_freezes_each_worker_before_its_first_request(monkeypatch):
    calls = []
    monkeypatch.setattr(warm, "warm_up_and_freeze", lambda: calls.append("warmed"))
    namespace: dict = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), namespace)
    namespace["post_worker_init"](object())
    assert calls == ["warmed"]
