from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Keeping a group's data safe: backups and restores of the database, CSV downloads."""

    name = "bunco_night.ops"
    label = "ops"
