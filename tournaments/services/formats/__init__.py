"""One object per tournament format (round robin, knockout, Swiss) behind one contract,
``TournamentFormat``: the decisions that differ by format, which the services ask for
instead of comparing ``Tournament.format``. Registered in ``TournamentsConfig.ready()``
(``tournaments.plugins.tournament_format_register``), like the pairing systems."""
