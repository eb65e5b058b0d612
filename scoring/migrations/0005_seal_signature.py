# Seals signed with the installation's key (scoring.sealing).

import hashlib

from django.db import migrations, models


def sign_existing_seals(apps, schema_editor):
    """The seals made before this version are signed with this installation's key (created
    here only when there is one to sign), provided their content still hashes to their
    fingerprint: the installation vouches for what it held when it was upgraded."""
    from scoring.documents.fingerprint import canonical_bytes
    from scoring.sealing import seal_fields

    SheetSeal = apps.get_model("scoring", "SheetSeal")
    for seal in SheetSeal.objects.filter(signature="").iterator():
        if hashlib.sha256(canonical_bytes(seal.content)).hexdigest() != seal.fingerprint:
            continue
        fields = seal_fields(seal.content)
        SheetSeal.objects.filter(pk=seal.pk).update(**fields)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_pin_attempt_registration'),
    ]

    operations = [
        migrations.AddField(
            model_name='sheetseal',
            name='installation',
            field=models.CharField(blank=True, default='', max_length=100),
        ),
        migrations.AddField(
            model_name='sheetseal',
            name='public_key',
            field=models.CharField(blank=True, default='', max_length=60),
        ),
        migrations.AddField(
            model_name='sheetseal',
            name='signature',
            field=models.CharField(blank=True, default='', max_length=100),
        ),
        migrations.RunPython(sign_existing_seals, migrations.RunPython.noop),
    ]
