"""The WSGI application (gunicorn ``celticsite.wsgi``)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
application = get_wsgi_application()

# The objects made at start-up (modules, models, the rules engine's tables: about 135,000)
# live as long as the process. Left out of garbage collection from here on, they no longer
# make every full collection scan them: a 70-140 ms pause in one request every few dozen
# (docs/SCALING.md).
gc.freeze()
