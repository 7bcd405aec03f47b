from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Playing a night: table phones, entries, the bell, round close and standings."""

    name = "bunco_night.play"
    label = "play"
