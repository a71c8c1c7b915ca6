"""Email notifications sent from a durable outbox (see docs/NOTIFICATIONS.md)."""
