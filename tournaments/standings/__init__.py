"""Standings and tie-breaks as pure functions over round records. No Django, no ORM."""
