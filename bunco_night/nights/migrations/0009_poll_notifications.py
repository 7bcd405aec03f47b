"""PostgreSQL tells every web process when what a phone's poll reads changes.

Triggers NOTIFY the channel ``bunco_polls`` (bunco_night/play/speed/listening.py) with the row
an UPDATE set a polled column of (to a new value or not: a full save() counts) or that
was deleted: "n<id>" for a night (its version), "t<id>" for a table (its version, link or
night), "a<id>" for an attendance (its link or night); and "*" when a whole table is
emptied.
PostgreSQL sends a notification when its transaction commits, and never for one rolled
back. SQLite has no notifications (and no need of them): nothing is done there.
"""

from django.db import migrations

FUNCTIONS = """
CREATE OR REPLACE FUNCTION bunco_polls_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('bunco_polls', TG_ARGV[0] || OLD.id);
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION bunco_polls_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('bunco_polls', '*');
    RETURN NULL;
END $$;
"""

# (table, its payload's letter, the columns a poll reads from it)
WATCHED = [
    ("nights_night", "n", "version"),
    ("nights_table", "t", "version, token, night_id"),
    ("nights_attendance", "a", "token, night_id"),
]


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTIONS)
    for table, letter, columns in WATCHED:
        schema_editor.execute(
            f"CREATE TRIGGER bunco_polls_row AFTER UPDATE OF {columns} OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION bunco_polls_row('{letter}')"
        )
        schema_editor.execute(
            f"CREATE TRIGGER bunco_polls_all AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION bunco_polls_all()"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, _, _ in WATCHED:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS bunco_polls_row ON {table}")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS bunco_polls_all ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS bunco_polls_row(), bunco_polls_all()")


class Migration(migrations.Migration):
    dependencies = [
        ("nights", "0008_seat_round_tables"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
