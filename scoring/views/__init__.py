"""Scoring's pages: calculator, score sheets, sheet documents, round page, archive, public pages.
May import the rest of scoring and tournaments (its models, services, forms, staff mixin)."""
