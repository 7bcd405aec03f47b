"""gunicorn.conf.py as gunicorn itself reads it (what `make run` and the party bench serve)."""

import sys
from pathlib import Path

import pytest
from gunicorn.app.base import Application

ROOT = Path(__file__).resolve().parents[2]


class _ConfOnly(Application):
    """A gunicorn application that only reads the project's config file."""

    def load_config(self):
        self.load_config_from_file(str(ROOT / "gunicorn.conf.py"))

    def load(self):  # never served
        raise AssertionError


@pytest.fixture
def cfg():
    return _ConfOnly().cfg


@pytest.fixture
def switch_interval():
    """Python's thread switch interval, put back after the test."""
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


def test_workers_take_shorter_thread_turns(cfg, switch_interval):
    # A tap in a worker that renders the host's board waits a turn after each round
    # trip: each worker process shortens the turns when it starts.
    sys.setswitchinterval(0.005)  # Python's default
    cfg.post_worker_init(None)
    assert sys.getswitchinterval() == pytest.approx(0.0002)


def test_the_party_settings_are_read(cfg):
    # What bench/README.md measured the party with.
    assert cfg.worker_class_str == "gthread"
    assert (cfg.threads, cfg.keepalive, cfg.reuse_port) == (8, 5, True)
    assert cfg.logger_class.__name__ == "RedactingLogger"
