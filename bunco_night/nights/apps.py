from django.apps import AppConfig


class NightsConfig(AppConfig):
    """A Bunco night: attendance, dues, tables, rounds and seats."""

    name = "bunco_night.nights"
    label = "nights"

    def ready(self) -> None:
        from bunco_night.groups.signals import player_retired

        player_retired.connect(_lists_follow, dispatch_uid="nights.lists_follow_retirement")


def _lists_follow(sender, *, player, retired: bool, **kwargs) -> None:
    from .services import lists_follow_retirement

    lists_follow_retirement(player=player, retired=retired)
