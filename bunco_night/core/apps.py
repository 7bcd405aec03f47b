from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Pages and commands that belong to the whole site."""

    name = "bunco_night.core"
    label = "core"
