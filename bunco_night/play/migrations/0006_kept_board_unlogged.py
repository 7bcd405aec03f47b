"""On PostgreSQL the kept boards are an UNLOGGED table.

A kept board is a copy of what the database says, never the record of anything
(``play.models.Board``): it need not survive a crash (PostgreSQL empties an unlogged
table after one, and the next poll renders the board again). A replica cannot read an
unlogged table: the site's database is the primary (README). An unlogged table writes
no WAL, so a statement that only keeps a board commits without waiting for the WAL to
reach the disk: that is every table phone's tap, once. SQLite has no such thing; this
does nothing there.
"""

from django.db import migrations


def _persistence(word: str):
    def change(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table = schema_editor.quote_name(apps.get_model("play", "Board")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} SET {word}")

    return change


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0005_kept_board"),
    ]

    operations = [
        migrations.RunPython(_persistence("UNLOGGED"), _persistence("LOGGED"), elidable=False),
    ]
