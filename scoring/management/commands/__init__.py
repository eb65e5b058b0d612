"""score_deal, score_sheets, demo_tournament, setup_demo, export_tournament, import_tournament.
Thin: parse arguments, call scoring and tournaments services, print."""
