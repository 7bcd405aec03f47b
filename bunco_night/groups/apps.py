from django.apps import AppConfig


class GroupsConfig(AppConfig):
    """A Bunco group: its hosts, roster, rules and prizes."""

    name = "bunco_night.groups"
    label = "groups"
