from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Pages and commands that belong to the whole site."""

    name = "bunco_night.core"
    label = "core"

    def ready(self):
        from django.db.backends.signals import connection_created

        from . import checks  # noqa: F401 (registers the site's system checks)

        connection_created.connect(_watch_prepared_statements)


def _watch_prepared_statements(sender, connection, **kwargs):
    """A new PostgreSQL connection is closed at the end of the request in which one of its
    prepared statements went stale (``prepared.obsolete_when_stale``). First in the list:
    a block's own ``connection.execute_wrapper`` takes the last one off when it ends."""
    from .speed.prepared import obsolete_when_stale

    if connection.vendor == "postgresql" and obsolete_when_stale not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, obsolete_when_stale)
