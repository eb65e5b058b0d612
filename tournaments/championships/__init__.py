"""A championship's stages (a room of its own): a sequence of tournaments, or of groups of
tournaments played in parallel, with the cut that says who goes on and the points carried into
the next stage. ``rules.py`` is the ground floor (no Django); ``selectors``, ``services`` and the
views follow the house's split; scoring answers ``signals.standings_wanted`` with a stage's
standings. The story is docs/championships.md."""
