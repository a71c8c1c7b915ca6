"""Settings, read from the environment with embedded defaults.

With no environment at all the site runs for development: SQLite under ``var/``, Celery on
kombu's filesystem transport (no Redis server), email printed to the console. Set
``DJANGO_ENV=production`` for the hardened profile that passes ``manage.py check --deploy``.
Every variable is listed in docs/CONFIGURATION.md.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CELTIC_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off", ""}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected true/false (1/0, yes/no, on/off)")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("DJANGO_ENV", "development") == "production"
DEBUG = env_bool("DJANGO_DEBUG", not PRODUCTION)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_ENV=production")
    SECRET_KEY = "development-only-key-never-used-in-production-" + "x" * 20

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", "" if PRODUCTION else "localhost,127.0.0.1,[::1],testserver"
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
# The site's address in emails' links. Unless SITE_URL is set, it follows the host and port
# `make run HOST=… PORT=…` serves on (passed as CELTIC_HOST and CELTIC_PORT); a server bound
# to every interface (0.0.0.0, ::) is linked as 127.0.0.1.
_SERVED_HOST = os.environ.get("CELTIC_HOST", "127.0.0.1")
if _SERVED_HOST in ("0.0.0.0", "::", "[::]"):
    _SERVED_HOST = "127.0.0.1"
SITE_URL = (
    os.environ.get("SITE_URL") or f"http://{_SERVED_HOST}:{os.environ.get('CELTIC_PORT', '8000')}"
).rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "moderation",
    "games",
    "rankings",
    "tournaments",
    "leagues",
    "ladders",
    "notifications",
    "players",
    "learn",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "celticsite.middleware.UserTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

if PRODUCTION:
    # Serve collected static files from the application itself (runserver does it in development).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "celticsite.urls"
WSGI_APPLICATION = "celticsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "celticsite" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database: SQLite by default, DATABASE_URL for PostgreSQL --------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # An unreachable server fails a request after this many seconds instead of hanging a
    # worker until the operating system gives up (minutes); a URL's own ?connect_timeout wins.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "5"))
    )
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # SQLite has no row locks: take the write lock when a transaction begins (IMMEDIATE), so a
    # racing request waits for it and then finds the ply moved on, instead of failing with
    # "database is locked" halfway through; and wait for it rather than fail at once.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth ------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's ModelBackend, refusing every password check while failed logins lock the account
# or the client's address (docs/SECURITY.md).
AUTHENTICATION_BACKENDS = ["accounts.backends.LoginLimitBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"

# --- Internationalisation ------------------------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "celticsite" / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Email -----------------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION or os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# Seconds to wait for the SMTP server at each step (connect, greeting, every command): a server
# that accepts the connection and never answers fails the attempt, which is retried later.
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Celtic! <noreply@celtic.localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Celery: Redis when REDIS_URL is set, else kombu's filesystem transport -------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# Seconds to wait for Redis (broker, result backend, cache) to connect and to answer a command.
REDIS_CONNECT_TIMEOUT = float(os.environ.get("REDIS_CONNECT_TIMEOUT", "5"))
REDIS_SOCKET_TIMEOUT = float(os.environ.get("REDIS_SOCKET_TIMEOUT", "10"))
CELERY_BROKER_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
    }
else:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "queue"),
        "data_folder_out": str(CELERY_BROKER_DIR / "queue"),
        "processed_folder": str(CELERY_BROKER_DIR / "processed"),
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "store_processed": False,
    }
    for _folder in ("queue", "processed", "control"):
        (CELERY_BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
CELERY_RESULT_BACKEND = None
# Used only if a Redis result backend is ever configured (CELERY_RESULT_BACKEND is None).
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_CONNECT_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = REDIS_SOCKET_TIMEOUT

# --- Cache: shared by every process (throttles and login limits count in it) -----------------
# Redis when CELTIC_CACHE_URL or REDIS_URL is set, under its own key prefix; else files under
# CELTIC_VAR_DIR/cache/, which every web process and the worker on this machine share.
CELTIC_CACHE_URL = os.environ.get("CELTIC_CACHE_URL", REDIS_URL)
CELTIC_CACHE_KEY_PREFIX = os.environ.get("CELTIC_CACHE_KEY_PREFIX", "celtic")
if CELTIC_CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "celticsite.cache.FailOpenRedisCache",  # fails open: docs/SECURITY.md
            "LOCATION": CELTIC_CACHE_URL,
            "KEY_PREFIX": CELTIC_CACHE_KEY_PREFIX,
            "OPTIONS": {
                "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                "socket_timeout": REDIS_SOCKET_TIMEOUT,
            },
        }
    }
else:
    # Files under CELTIC_VAR_DIR, shared by every process on this machine, no server and no
    # database queries (celticsite/cache.py makes ``add`` atomic for the login limits).
    CACHES = {
        "default": {
            "BACKEND": "celticsite.cache.AtomicFileCache",
            "LOCATION": str(VAR_DIR / "cache"),
            "KEY_PREFIX": CELTIC_CACHE_KEY_PREFIX,
            # Above this many entries, a third are deleted at random: high enough that a flood
            # of keys cannot evict the login locks.
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        }
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
# Two queues (docs/NOTIFICATIONS.md, "Queues and workers"): deciding timeouts and deadline
# reminders go to "clock", everything else (sending mail, polling the mailbox, the outbox
# flush, digests) to "mail", so a slow or silent mail server never holds up a clock. A worker
# started without -Q consumes both.
CELERY_TASK_DEFAULT_QUEUE = "mail"
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name), routing_key=name) for name in ("mail", "clock")
)
CELERY_TASK_ROUTES = {
    "games.tasks.decide_timeouts": {"queue": "clock"},
    "notifications.tasks.send_deadline_reminders": {"queue": "clock"},
}
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # docs/NOTIFICATIONS.md describes these.
    "notifications-flush-outbox": {"task": "notifications.tasks.flush_outbox", "schedule": 60.0},
    "notifications-flush-push-outbox": {
        "task": "notifications.tasks.flush_push_outbox",
        "schedule": 60.0,
    },
    "notifications-deadline-reminders": {
        "task": "notifications.tasks.send_deadline_reminders",
        "schedule": 300.0,  # reminders go out within 5 minutes of the chosen time
    },
    "notifications-daily-digests": {
        "task": "notifications.tasks.send_daily_digests",
        "schedule": crontab(hour=7, minute=0),
    },
    "games-decide-timeouts": {"task": "games.tasks.decide_timeouts", "schedule": 60.0},
    "tournaments-advance": {"task": "tournaments.tasks.advance_tournaments", "schedule": 60.0},
    "accounts-purge-pending-signups": {
        "task": "accounts.tasks.purge_pending_signups",
        "schedule": crontab(hour=4, minute=30),
    },
    # docs/RANKINGS.md: the stored ranking is built for one UTC date.
    "rankings-refresh": {
        "task": "rankings.tasks.refresh_ranking",
        "schedule": crontab(hour=0, minute=1),
    },
    # A rated game's result reaches the stored ranking in a task after its commit; this
    # catches any whose task was lost (broker down).
    "rankings-apply-updates": {"task": "rankings.tasks.apply_ranking_updates", "schedule": 60.0},
    "leagues-advance": {"task": "leagues.tasks.advance_leagues", "schedule": 60.0},
    "ladders-advance": {"task": "ladders.tasks.advance_ladders", "schedule": 600.0},
}

# --- Moves by email (docs/MOVES-BY-EMAIL.md) ------------------------------------------------
# Replies to "your turn" emails go to CELTIC_MOVES_ADDRESS with a signed token as its plus
# part (moves+<token>@domain); an empty value turns moves by email off.
CELTIC_MOVES_ADDRESS = os.environ.get(
    "CELTIC_MOVES_ADDRESS", "moves@" + DEFAULT_FROM_EMAIL.rpartition("@")[2].strip(" >")
)
CELTIC_REPLY_TOKEN_DAYS = int(os.environ.get("CELTIC_REPLY_TOKEN_DAYS", "30"))
# Optional: poll an IMAP mailbox for replies instead of (or as well as) an MTA pipe.
CELTIC_IMAP_HOST = os.environ.get("CELTIC_IMAP_HOST", "")
CELTIC_IMAP_SSL = env_bool("CELTIC_IMAP_SSL", True)
CELTIC_IMAP_PORT = int(os.environ.get("CELTIC_IMAP_PORT", "993" if CELTIC_IMAP_SSL else "143"))
CELTIC_IMAP_USER = os.environ.get("CELTIC_IMAP_USER", "")
CELTIC_IMAP_PASSWORD = os.environ.get("CELTIC_IMAP_PASSWORD", "")
CELTIC_IMAP_FOLDER = os.environ.get("CELTIC_IMAP_FOLDER", "INBOX")
CELTIC_IMAP_DELETE = env_bool("CELTIC_IMAP_DELETE", False)
CELTIC_IMAP_POLL_SECONDS = float(os.environ.get("CELTIC_IMAP_POLL_SECONDS", "60"))
# Seconds to wait for the IMAP server to connect and to answer each command.
CELTIC_IMAP_TIMEOUT = float(os.environ.get("CELTIC_IMAP_TIMEOUT", "30"))
# Hostile mail: a message larger than this (bytes) is refused before it is parsed, and one
# with parts nested deeper than this is refused too (docs/SECURITY.md).
CELTIC_INBOUND_MAX_BYTES = int(os.environ.get("CELTIC_INBOUND_MAX_BYTES", str(1024 * 1024)))
CELTIC_INBOUND_MAX_MIME_DEPTH = int(os.environ.get("CELTIC_INBOUND_MAX_MIME_DEPTH", "10"))
# The authserv-id of the receiving mail server's Authentication-Results header: a reply whose
# DMARC or SPF check failed there does not move. Empty: the header is ignored.
CELTIC_MAIL_TRUSTED_AUTHSERV_ID = os.environ.get("CELTIC_MAIL_TRUSTED_AUTHSERV_ID", "").strip()
if CELTIC_IMAP_HOST:
    CELERY_BEAT_SCHEDULE["notifications-poll-inbound-mailbox"] = {
        "task": "notifications.tasks.poll_inbound_mailbox",
        "schedule": CELTIC_IMAP_POLL_SECONDS,
    }

# --- Web Push (docs/NOTIFICATIONS.md, "Web Push") -------------------------------------------
# The VAPID key pair (base64url: the raw private key, the uncompressed public point) from the
# environment, else the pair ``make run`` generated into var/vapid.json
# (``manage.py vapid_keys``), else none: then no browser can subscribe and nothing is pushed.
WEBPUSH_VAPID_KEYS_FILE = VAR_DIR / "vapid.json"
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "")
_VAPID_FROM_ENV = WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY
if not _VAPID_FROM_ENV and WEBPUSH_VAPID_KEYS_FILE.exists():
    _vapid = json.loads(WEBPUSH_VAPID_KEYS_FILE.read_text())
    WEBPUSH_VAPID_PUBLIC_KEY, WEBPUSH_VAPID_PRIVATE_KEY = _vapid["public"], _vapid["private"]
# Who runs the server, for push services to contact (RFC 8292 "sub").
WEBPUSH_VAPID_SUBJECT = os.environ.get("WEBPUSH_VAPID_SUBJECT", "mailto:admin@celtic.localhost")
# How long a push service keeps a push for a device that is offline, in seconds.
WEBPUSH_TTL = int(os.environ.get("WEBPUSH_TTL", str(24 * 3600)))
WEBPUSH_TIMEOUT = float(os.environ.get("WEBPUSH_TIMEOUT", "10"))

# --- Client addresses and failed logins (docs/SECURITY.md) -----------------------------------
CELTIC_TRUSTED_PROXIES = int(os.environ.get("CELTIC_TRUSTED_PROXIES", "0"))
if CELTIC_TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured(
        f"CELTIC_TRUSTED_PROXIES={CELTIC_TRUSTED_PROXIES}: expected 0 (no proxy) or more"
    )
# Failed logins allowed per account and per client address within CELTIC_LOGIN_COOLOFF_MINUTES
# before further attempts get 429 until that many minutes after the lock began.
CELTIC_LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("CELTIC_LOGIN_FAILURES_PER_ACCOUNT", "10"))
CELTIC_LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("CELTIC_LOGIN_FAILURES_PER_ADDRESS", "30"))
CELTIC_LOGIN_COOLOFF_MINUTES = int(os.environ.get("CELTIC_LOGIN_COOLOFF_MINUTES", "15"))

# --- REST framework and OpenAPI -------------------------------------------------------------
# The largest request body the API reads (bytes); a larger one is answered 413 unread.
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES", str(64 * 1024)))
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "celticsite.api.Pagination",
    "PAGE_SIZE": 25,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON bodies only: a form or multipart body is answered 415 (docs/SECURITY.md).
    "DEFAULT_PARSER_CLASSES": ["celticsite.parsers.JsonBodyParser"],
    # ... refused before authentication, permissions or any lookup, whatever the path names.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "celticsite.parsers.BodyCheckingNegotiation",
    "DEFAULT_SCHEMA_CLASS": "celticsite.schema.AutoSchema",
    "EXCEPTION_HANDLER": "celticsite.api.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "60/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "600/minute"),
        "moves": os.environ.get("API_THROTTLE_MOVES", "120/minute"),
        "messages": os.environ.get("API_THROTTLE_MESSAGES", "20/hour"),
    },
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # How many reverse proxies in front of the site append to X-Forwarded-For; the client is
    # the address that many places from the right (0: REMOTE_ADDR, the header is ignored).
    "NUM_PROXIES": CELTIC_TRUSTED_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Celtic! correspondence API",
    "DESCRIPTION": (
        "Play Cameron Browne's tile game Celtic! by correspondence: challenges, games, moves, "
        "records and the world ranking. Authenticate with `Authorization: Token <key>` "
        "(create keys at /api/v1/accounts/tokens/) or a browser session. Errors are JSON "
        "objects with a machine-readable `code` and a human-readable `detail`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["celticsite.schema.postprocess_schema"],
    "ENUM_NAME_OVERRIDES": {
        "SideEnum": ["orange", "blue"],
        "GameStatusEnum": "games.models.Game.Status",
        "ChallengeStatusEnum": "games.models.Challenge.Status",
        "TurnKindEnum": "games.models.Move.Kind",
        "ClockKindEnum": ["per_move", "fischer", "none"],
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "TournamentResultEnum": "tournaments.models.TournamentGame.Result",
        "ByeKindEnum": "tournaments.models.Bye.Kind",
        "GameResultEnum": ["1-0", "0-1", "1/2-1/2"],
        "SeasonStatusEnum": "leagues.models.Season.Status",
        "MembershipStatusEnum": "leagues.models.Membership.Status",
        "MembershipOutcomeEnum": "leagues.models.Membership.Outcome",
        "LadderChallengeStatusEnum": "ladders.models.LadderChallenge.Status",
        "LadderEventKindEnum": "ladders.models.LadderEvent.Kind",
        "KnotPhaseEnum": "games.position_serializers.KNOT_PHASES",
    },
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Game and ranking parameters (documented in docs/CONFIGURATION.md) -----------------------
RATING_ELO_START = 1500.0
RATING_ELO_K_NEW = 40.0
RATING_ELO_K_ESTABLISHED = 20.0
RATING_ELO_K_MASTER = 10.0
RATING_ELO_NEW_GAMES = 30
RATING_ELO_MASTER_THRESHOLD = 2400.0
RATING_ELO_MAX_DIFF = 400.0
RATING_GLICKO_TAU = 0.5
RATING_ORDER_BY = os.environ.get("RATING_ORDER_BY", "elo")
RATING_ACTIVE_DAYS = int(os.environ.get("RATING_ACTIVE_DAYS", "365"))
RATING_PROVISIONAL_GAMES = 10
# Vacation days each player may take per calendar year (UTC); docs/CLOCKS.md.
CELTIC_VACATION_DAYS_PER_YEAR = int(os.environ.get("CELTIC_VACATION_DAYS_PER_YEAR", "30"))

# --- Security headers, in every mode (docs/SECURITY.md, "Headers") ---------------------------
# No inline script anywhere: every script is a static file (the API docs use drf-spectacular's
# split view for that). Inline styles stay allowed: the board's SVG colours its knots with
# style attributes and Swagger UI ships a <style> block.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_REFERRER_POLICY = "same-origin"
# Powerful browser features the site never uses, refused to it and to anything it embeds.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "camera": [],
    "geolocation": [],
    "microphone": [],
    "payment": [],
    "usb": [],
}

# --- Production hardening ---------------------------------------------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
