"""``python -m games.kinds.celtic``: the engine's command line (see ``games.kinds.celtic.cli``)."""

from games.kinds.celtic.cli import main

raise SystemExit(main())
