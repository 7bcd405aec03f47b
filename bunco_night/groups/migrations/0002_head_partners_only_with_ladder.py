"""Head-table partners stay together only with ladder movement (docs/rules.md section 5.4).

Rules stored with the variant on and another movement paired the last table's losing team
again; the rules engine now refuses that combination, so it is turned off where it was on.
"""

from django.db import migrations

LADDER = "ladder"


def turn_off(apps, schema_editor):
    for model in (apps.get_model("groups", "Group"), apps.get_model("nights", "Night")):
        for row in model.objects.filter(rules__head_partners_stay=True):
            if row.rules.get("movement") != LADDER:
                row.rules["head_partners_stay"] = False
                row.save(update_fields=["rules"])


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0001_initial"),
        ("nights", "0004_round_replaced_seating"),
    ]

    operations = [migrations.RunPython(turn_off, migrations.RunPython.noop)]
