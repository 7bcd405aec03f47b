"""Each round keeps the seed of the draw that made its seating, so the night page shows a
seed only with a seating a draw made (docs/rules.md section 4.4). Rounds seated before
this: the night's last draw is the latest round whose draw can be (or could have been)
taken back; it gets the night's seed, and every other round none."""

from django.db import migrations, models


def seed_of_the_last_draw(apps, schema_editor):
    Round = apps.get_model("nights", "Round")
    drawn = Round.objects.filter(replaced_seating__isnull=False).order_by("night_id", "-number")
    last = {}
    for rnd in drawn.select_related("night").only("pk", "night_id", "night__seed"):
        last.setdefault(rnd.night_id, (rnd.pk, rnd.night.seed))
    for pk, seed in last.values():
        Round.objects.filter(pk=pk).update(draw_seed=seed)


class Migration(migrations.Migration):
    dependencies = [
        ("nights", "0011_night_prizes"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="draw_seed",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="The seed of the draw that made this round's seating; none when the "
                "movement, a correction or a change of who plays made it (docs/rules.md "
                "section 4.4).",
                null=True,
            ),
        ),
        migrations.RunPython(seed_of_the_last_draw, migrations.RunPython.noop),
    ]
