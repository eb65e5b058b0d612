from django.apps import AppConfig


class TarotClubConfig(AppConfig):
    name = "tarot_club"
    verbose_name = "Tarot Club"

    def ready(self) -> None:
        from tarot_club import checks  # noqa: F401  (registers the system checks)
