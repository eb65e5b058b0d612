# The keys this installation trusts (scoring.trust); its own seals signed with their name.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def trust_own_key_and_sign_names(apps, schema_editor):
    """This installation's key (when it has one) is trusted, and the seals it made before names
    were signed are signed again over their content, this installation's name and its key: it
    vouches for what it sealed with that very key. Seals by any other key are left as they are:
    they read « clé inconnue » until an organiser trusts that key (manage.py trust_key)."""
    from scoring.documents.seal import seal_scheme, sign_seal
    from scoring.sealing import installation_key, key_path, public_key_text

    if not key_path().exists():
        return
    key = installation_key()
    public_key = public_key_text(key)
    Club = apps.get_model("tournaments", "Club")
    SheetSeal = apps.get_model("scoring", "SheetSeal")
    TrustedKey = apps.get_model("scoring", "TrustedKey")
    first_club = Club.objects.exclude(slug=None).order_by("pk").values_list("name", flat=True)
    name = (settings.INSTALLATION_NAME or first_club.first() or "Tarot Club")[:100]
    TrustedKey.objects.get_or_create(public_key=public_key, defaults={"own": True, "name": name})
    for seal in SheetSeal.objects.filter(public_key=public_key).iterator():
        if seal_scheme(public_key, seal.content, seal.installation, seal.signature) == 1:
            SheetSeal.objects.filter(pk=seal.pk).update(
                signature=sign_seal(key, seal.content, name), installation=name
            )


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0009_sheet_event_action_choices'),
        ('tournaments', '0010_round_seats_changed'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='TrustedKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('public_key', models.CharField(max_length=60, unique=True)),
                ('name', models.CharField(blank=True, default='', max_length=100)),
                ('own', models.BooleanField(default=False)),
                ('added_at', models.DateTimeField(auto_now_add=True)),
                ('added_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['added_at', 'pk'],
            },
        ),
        migrations.RunPython(trust_own_key_and_sign_names, migrations.RunPython.noop),
    ]
