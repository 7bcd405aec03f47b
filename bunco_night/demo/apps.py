from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo group that `make run` loads: built through the services of every app."""

    name = "bunco_night.demo"
    label = "demo"
