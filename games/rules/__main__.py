"""``python -m games.rules``: the engine's command line (see ``games.rules.cli``)."""

from games.rules.cli import main

raise SystemExit(main())
