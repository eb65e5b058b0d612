"""The scoring app's migrations (app label ``scoring``).
May import Django and, in data migrations, nothing but historical models."""
