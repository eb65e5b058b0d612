"""The tournaments app's migrations (app label ``tournaments``).
May import Django and, in data migrations, nothing but historical models."""
