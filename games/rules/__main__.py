"""``python -m games.rules``: the old name of ``python -m games.kinds.celtic``."""

from games.kinds.celtic.cli import main

raise SystemExit(main())
