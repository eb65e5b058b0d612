from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LicenseesConfig(AppConfig):
    name = "tournaments.licensees"
    label = "licensees"
    verbose_name = _("Licensee list")
