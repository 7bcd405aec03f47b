"""A table's secret link."""

from __future__ import annotations

from django.db import transaction

from bunco_night.nights.models import Table, new_token


@transaction.atomic
def table_link_renew(*, table: Table) -> Table:
    """Give a table a new secret link (a lost phone, a link posted by mistake).

    The old link stops working at once: every table page and write looks the table
    up by its token. The table's entries and seats stay as they are. Its version moves:
    a board drawn for the old link (its links name the old token) is never sent as the
    new link's (``boards.py``).
    """
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.token = new_token()
    table.version += 1
    table.save(update_fields=["token", "version"])
    return table
