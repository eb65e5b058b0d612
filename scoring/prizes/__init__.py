"""Categories and the prize list (« palmarès ») of a tournament: a room of their own.

``rules.py`` holds the rules in plain Python (no Django: who is in a category, the category
standings, who wins which prize); ``models.py`` what the organiser sets; ``services.py`` the
writes; ``selectors.py`` the reads of pages and exports; ``views.py`` the organiser's page, the
public category standings and the prize list (page and PDF). See ``docs/prizes.md``.
"""
