"""Data of the tournaments app."""
