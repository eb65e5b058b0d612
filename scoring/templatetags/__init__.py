"""Template filters for the domain's numbers and names (``{% load tarot %}``).
May import Django only."""
