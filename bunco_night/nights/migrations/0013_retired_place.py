"""What a retired player's places on the nights to come said, kept for bringing them back
(docs/rules.md section 8.1)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0004_more_prizes"),
        ("nights", "0012_round_draw_seed"),
    ]

    operations = [
        migrations.CreateModel(
            name="RetiredPlace",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("coming", "Coming"),
                            ("sub", "Sends a substitute"),
                            ("absent", "Not coming, no substitute"),
                            ("left", "Left early"),
                        ],
                        max_length=8,
                    ),
                ),
                ("token", models.CharField(max_length=43)),
                (
                    "night",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="retired_places",
                        to="nights.night",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="retired_places",
                        to="groups.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("night", "player"), name="one_retired_place_per_player"
                    )
                ],
            },
        ),
    ]
