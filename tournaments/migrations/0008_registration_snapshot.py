"""Each registration keeps the player's name, club and licence as they were when they
registered: a later tournament never rewrites what an earlier one showed and sealed."""

from django.db import migrations, models


FIELDS = ["first_name", "last_name", "club_name", "licence"]


def copy_players(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    for model in ("Registration", "HistoricalRegistration"):
        _copy(apps.get_model("tournaments", model), Player)


def _copy(Registration, Player):
    players = {p.pk: p for p in Player.objects.select_related("club")}
    batch = []
    for registration in Registration.objects.iterator(chunk_size=2000):
        player = players.get(registration.player_id)
        if player is None:
            continue
        registration.first_name = player.first_name
        registration.last_name = player.last_name
        registration.club_name = player.club.name if player.club_id else ""
        registration.licence = player.licence
        batch.append(registration)
        if len(batch) >= 2000:
            Registration.objects.bulk_update(batch, FIELDS)
            batch = []
    if batch:
        Registration.objects.bulk_update(batch, FIELDS)


def text_field(verbose_name, max_length, **extra):
    return models.CharField(
        blank=True, default="", max_length=max_length, verbose_name=verbose_name, **extra
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_timed_rounds"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="registration",
            options={
                "ordering": ["last_name", "first_name"],
                "verbose_name": "registration",
                "verbose_name_plural": "registrations",
            },
        ),
        *[
            migrations.AddField(
                model_name=model,
                name=name,
                field=text_field(verbose, length),
                preserve_default=False,
            )
            for model in ("registration", "historicalregistration")
            for name, verbose, length in (
                ("first_name", "first name", 80),
                ("club_name", "club", 120),
                ("licence", "FFT licence", 20),
            )
        ],
        *[
            migrations.AddField(
                model_name=model,
                name="last_name",
                field=models.CharField(default="", max_length=80, verbose_name="last name"),
                preserve_default=False,
            )
            for model in ("registration", "historicalregistration")
        ],
        migrations.RunPython(copy_players, migrations.RunPython.noop),
    ]
