"""Data of the scoring app (deals and score sheets arrive with deal entry)."""
