from django.apps import AppConfig


class PrintingConfig(AppConfig):
    """Printed documents for a night: table cards, tally sheets, score pads, results, dues."""

    name = "bunco_night.printing"
    label = "printing"
