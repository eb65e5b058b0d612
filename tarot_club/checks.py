"""System checks of this project's own settings."""

from django.core.checks import Error, Tags, register

from tarot_club.secret_key import serving_refusal


@register(Tags.security, deploy=True)
def secret_key_is_explicit(app_configs, **kwargs):
    """``check --deploy``: production needs its own DJANGO_SECRET_KEY, not the local one."""
    message = serving_refusal()
    if message is None:
        return []
    return [Error(message, id="tarot_club.E001")]
