from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    """A group's seasons: standings over many nights, year-end prizes, the group's money,
    and every player's history."""

    name = "bunco_night.seasons"
    label = "seasons"
