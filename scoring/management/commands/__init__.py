"""score_deal, score_sheets, demo_tournament, demo_season, setup_demo, export_tournament,
import_tournament, import_season. Thin: parse arguments, call scoring and tournaments, print."""
