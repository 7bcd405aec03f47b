"""Many rows' changed fields in one ``executemany`` of short UPDATEs: far cheaper than
``bulk_update``'s CASE WHEN built in Python. Like it: no signals, ``auto_now`` untouched."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connections, router
from django.db.models import Model


def update_each(objs: Sequence[Model], fields: Sequence[str]) -> None:
    """Write ``fields`` of the saved instances ``objs`` (one model) to their rows."""
    if not objs:
        return
    model = type(objs[0])
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    setting = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    sql = f"UPDATE {quote(meta.db_table)} SET {setting} WHERE {quote(meta.pk.column)} = %s"
    rows = [
        [field.get_db_prep_save(getattr(obj, field.attname), connection) for field in columns]
        + [obj.pk]
        for obj in objs
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
