"""Nights that ended before their money was recorded keep it as the pages showed it on
the day of this migration (docs/rules.md section 7.9): pot, season share, prizes and who
is paid what, worked out by the app's own reckoning.

That reckoning is the app's code, not frozen in here: the figures must be exactly those
the pages show today. A database with no finished night (every new one) runs none of it,
so the migration stays safe to run on a new database whatever the code becomes.
"""

from django.db import migrations


def record_finished_nights(apps, schema_editor):
    Night = apps.get_model("nights", "Night")
    MoneyRecord = apps.get_model("nights", "MoneyRecord")
    recorded = MoneyRecord.objects.values("night_id")
    pending = list(
        Night.objects.filter(status="finished")
        .exclude(pk__in=recorded)
        .values_list("pk", flat=True)
    )
    if not pending:
        return
    from bunco_night.nights.models import Night as LiveNight
    from bunco_night.nights.money import money_record

    for night in LiveNight.objects.filter(pk__in=pending).select_related("group"):
        money_record(night)


class Migration(migrations.Migration):
    dependencies = [
        ("nights", "0015_money_record"),
        ("play", "0008_kept_states"),
        ("games", "0001_initial"),
        ("groups", "0004_more_prizes"),
    ]

    operations = [migrations.RunPython(record_finished_nights, migrations.RunPython.noop)]
