"""Placeholder: replaced by the full environment-driven settings."""
SECRET_KEY = "dev-only"
INSTALLED_APPS: list[str] = []
