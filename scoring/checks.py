"""System checks of the scoring app: the sealing key can be read, or created, before the first
player signs (``scoring.sealing``)."""

from django.core.checks import Error, register

from scoring.sealing import key_problem


@register()
def sealing_key_is_usable(app_configs, **kwargs):
    problem = key_problem()
    return [] if problem is None else [Error(problem, id="scoring.E001")]
