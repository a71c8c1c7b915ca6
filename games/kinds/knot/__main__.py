"""``python -m games.kinds.knot``: the engine's command line (see ``games.kinds.knot.cli``)."""

from games.kinds.knot.cli import main

raise SystemExit(main())
