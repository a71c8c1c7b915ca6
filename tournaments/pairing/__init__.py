"""Pairing systems as pure functions: standings in, pairs out. No Django, no ORM."""
