"""Tournaments: round robin, knockout and Swiss events run by correspondence."""
