"""A host, the host's group and nights for the printing tests."""

import pytest

from bunco_night.nights.models import Night
from bunco_night.play.services import round_start
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


def play_rounds(night: Night, winners: list[list[int]]) -> None:
    """Start the night and play one round per entry of ``winners`` (seats, table by table)."""
    start_night(night)
    for i, seats in enumerate(winners):
        if i:
            round_start(night=night)
        play_round(night, winners=seats)
