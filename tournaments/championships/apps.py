from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChampionshipsConfig(AppConfig):
    name = "tournaments.championships"
    label = "championships"
    verbose_name = _("Championships")
