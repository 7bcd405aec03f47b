from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Playing a night: table phones, entries, the bell, round close and standings."""

    name = "bunco_night.play"
    label = "play"

    def ready(self) -> None:
        from bunco_night.nights.money import use_prize_reader

        from .standings import prizes_for_pot

        use_prize_reader(prizes_for_pot)
