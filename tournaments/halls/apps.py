from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HallsConfig(AppConfig):
    name = "tournaments.halls"
    label = "halls"
    verbose_name = _("Halls")
