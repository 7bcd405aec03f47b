"""A table's secret link."""

from __future__ import annotations

from django.db import transaction

from bunco_night.nights.models import Table, new_token


@transaction.atomic
def table_link_renew(*, table: Table) -> Table:
    """Give a table a new secret link; the old one stops at once, its version moves."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.token = new_token()
    table.version += 1
    table.save(update_fields=["token", "version"])
    return table
