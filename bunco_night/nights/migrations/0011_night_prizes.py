"""Each night keeps the group's prizes as they were when it was planned (docs/rules.md
section 8.5). Nights planned before this keep the group's prizes as they are now."""

from django.db import migrations, models


def keep_the_group_s_prizes(apps, schema_editor):
    Night = apps.get_model("nights", "Night")
    Prize = apps.get_model("groups", "Prize")
    by_group: dict[int, list[dict]] = {}
    for p in Prize.objects.order_by("order", "id"):
        by_group.setdefault(p.group_id, []).append(
            {"code": p.code, "mark": p.mark, "amount_cents": p.amount_cents, "percent": p.percent}
        )
    for night in Night.objects.all().only("pk", "group_id"):
        Night.objects.filter(pk=night.pk).update(prizes=by_group.get(night.group_id, []))


class Migration(migrations.Migration):
    dependencies = [
        ("groups", "0004_more_prizes"),
        ("nights", "0010_night_nonce"),
    ]

    operations = [
        migrations.AddField(
            model_name="night",
            name="prizes",
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(keep_the_group_s_prizes, migrations.RunPython.noop),
    ]
