from django.apps import AppConfig


class NightsConfig(AppConfig):
    """A Bunco night: attendance, dues, tables, rounds and seats."""

    name = "bunco_night.nights"
    label = "nights"
