"""Where a round's seating put each player before anyone came or went, so a re-seat can put
back someone a partner rule no longer keeps off their seat (docs/rules.md section 10)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("nights", "0013_retired_place"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="planned_seating",
            field=models.JSONField(
                blank=True,
                help_text="Each player's [table, seat] as the movement, a draw or a swap seated "
                "them, before anyone came or went: where a re-seat sends them back (docs/rules.md "
                "section 10).",
                null=True,
            ),
        ),
    ]
