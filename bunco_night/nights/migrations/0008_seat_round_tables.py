from django.db import migrations, models
from django.db.models import Count


def fill_round_tables(apps, schema_editor):
    """Each existing seat learns how many tables its round seats."""
    Seat = apps.get_model("nights", "Seat")
    counts = (
        Seat.objects.values("round_id")
        .annotate(n=Count("table_id", distinct=True))
        .values_list("round_id", "n")
    )
    for round_id, n in counts:
        Seat.objects.filter(round_id=round_id).update(round_tables=n)


class Migration(migrations.Migration):
    dependencies = [
        ("nights", "0007_door_seed_and_prize_results"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="round_tables",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.RunPython(fill_round_tables, migrations.RunPython.noop),
    ]
