"""score_deal, score_sheets, demo_tournament, demo_season, demo_championship, setup_demo,
export_tournament, import_tournament, import_season, publish_seal_key, trust_key. Thin: parse
arguments, call scoring and tournaments, print."""
