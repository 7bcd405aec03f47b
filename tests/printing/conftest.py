"""A host, the host's group and nights for the printing tests."""

import pytest

from bunco_night.nights.models import Night
from bunco_night.play.services import round_start
from bunco_night.printing import pictures
from tests.factories import make_night
from tests.play.helpers import play_round, start_night


@pytest.fixture
def night(group) -> Night:
    """Twelve regulars coming, one set of six rounds, nothing drawn or played yet."""
    return make_night(group, sets=1)


@pytest.fixture
def played(night) -> Night:
    """The same night with rounds 1 and 2 closed and round 3 seated."""
    play_rounds(night, [[1, 2, 1], [2, 1, 3]])
    return night


@pytest.fixture
def no_picture(monkeypatch):
    """A machine without DejaVu Sans: the tally sheets print text, not pictures."""

    def forget():
        for cached in (pictures.font_file, pictures._header_png, pictures._sets_png):
            cached.cache_clear()

    forget()
    monkeypatch.setattr(pictures.shutil, "which", lambda name: None)
    yield
    monkeypatch.undo()
    forget()


def play_rounds(night: Night, winners: list[list[int]]) -> None:
    """Start the night and play one round per entry of ``winners`` (seats, table by table)."""
    start_night(night)
    for i, seats in enumerate(winners):
        if i:
            round_start(night=night)
        play_round(night, winners=seats)
