"""A correction now voids the signatures already given (scoring.services._amend). Before, a
referee's correction of a partly signed sheet left them standing on a sheet back in progress;
void those, as the correction would have done now."""

from django.db import migrations
from django.utils import timezone


def void_standing_signatures(apps, schema_editor):
    Signature = apps.get_model("scoring", "Signature")
    Signature.objects.filter(
        superseded_at__isnull=True, sheet__status__in=["not_started", "in_progress"]
    ).update(superseded_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(void_standing_signatures, migrations.RunPython.noop)]
