"""Tournaments, their entries, rounds and games."""
