from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The games of a night that are not played at the dice tables: Buck Dice at one table,
    and the chip ledger of a Bonanza table (docs/rules.md sections 9.3 and 9.4)."""

    name = "bunco_night.games"
    label = "games"
