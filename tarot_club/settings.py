"""Settings, all from the environment.

- ``DJANGO_DEBUG=1`` turns debug on (off by default).
- ``DJANGO_SECRET_KEY``: production sets it. Without it, commands and ``make run`` use a key
  generated once and kept beside the SQLite database (``db.sqlite3.secret-key``), but a server
  refuses to start with that key unless ``DJANGO_LOCAL_SERVER=1`` (set by ``make run`` only):
  see :mod:`tarot_club.secret_key`.
- ``DATABASE_URL`` selects the database; without it, SQLite in ``db.sqlite3`` (WAL, IMMEDIATE
  transactions so that writers are serialised) — a referee's laptop needs no server.
- ``DJANGO_ALLOWED_HOSTS`` (comma-separated), ``DJANGO_CSRF_TRUSTED_ORIGINS``,
  ``DJANGO_SECURE`` (HTTPS-only cookies, HSTS, redirect; on by default when debug is off).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from tarot_club.secret_key import LOCAL_SERVER_VARIABLE, key_file_beside, local_key

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG")
# Under pytest the test settings apply without any environment variable to remember.
TESTING = env_bool("DJANGO_TESTING") or "pytest" in sys.modules

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "simple_history",
    "axes",
    "csp",
    "tarot_club",
    "scoring",
    "tournaments",
    "tournaments.halls",
    "tournaments.licensees",
    "tournaments.championships",
    "django_tasks",
    "django_tasks_db",
    "scoring.jobs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A phone or TV asking whether its public page changed is answered 304 here, before the
    # session, authentication and the rest, when it holds the current version (issue 28).
    "scoring.public_answers.RevalidateFirstMiddleware",
    # The club room's server (make club) has no /admin/ (tarot_club.room_accounts).
    "tarot_club.room_accounts.RoomAdminClosedMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A client without a usable address is refused before any throttle counts it.
    "tarot_club.network.ClientAddressMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before the CSRF check, which reads the body: a too large upload is refused unread.
    "tarot_club.uploads.UploadLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: locks out repeated failed logins.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's, except that the club room's server refuses a password anybody could know.
    "tarot_club.room_accounts.RoomModelBackend",
]
# On when `make club` serves the room (tarot_club.club.server_environment): no /admin/, no
# known password accepted (tarot_club.room_accounts).
CLUB_ROOM = env_bool("DJANGO_CLUB_ROOM")
# Proxies in front of the app that append the client's address to X-Forwarded-For (a TLS proxy:
# 1). Every throttle reads the client's address through tarot_club.network.client_address; with
# 0 (a laptop serving the room) X-Forwarded-For is ignored, since any client can send one.
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0") or 0)

# Login throttling: 5 failures for one username from one address lock it for 15 minutes.
AXES_ENABLED = env_bool("AXES_ENABLED", default=not TESTING)
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "tarot_club.network.client_address"

# Content security policy: everything from our own origin; no inline script, no CDN.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

ROOT_URLCONF = "tarot_club.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "tarot_club.wsgi.application"

_SQLITE_PATH = os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{_SQLITE_PATH}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Connections are kept (CONN_MAX_AGE above) on SQLite too: opening one and running the
    # PRAGMAs below cost more than a cached public page. restore_db writes into the live file
    # through SQLite's backup API, which kept connections see at their next read.
    # Writers queue on a lock file rather than sleeping in SQLite's busy handler (see the module).
    DATABASES["default"]["ENGINE"] = "tarot_club.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        # Serialise writers at BEGIN instead of failing at the first write of a transaction.
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
        ),
    }
    # Tests use a file too (not an in-memory database), so that WAL, IMMEDIATE transactions and
    # writers in several threads behave as they do on a referee's laptop.
    # One file per test process, so that concurrent runs never share a database.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get(
            "SQLITE_TEST_PATH",
            os.path.join(tempfile.gettempdir(), f"tarot-club-test-{os.getpid()}.sqlite3"),
        )
    }

# The secret key (see tarot_club.secret_key): explicit from the environment in production;
# otherwise generated once beside the SQLite database (the default one when DATABASE_URL names
# another database), which commands may use but a server only when DJANGO_LOCAL_SERVER=1.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip()
SECRET_KEY_FROM_ENVIRONMENT = bool(SECRET_KEY)
LOCAL_SERVER = env_bool(LOCAL_SERVER_VARIABLE)
LOCAL_SECRET_KEY_FILE = ""
if not SECRET_KEY:
    if TESTING:
        SECRET_KEY = "insecure-test-key-never-used-outside-the-test-suite"
    else:
        _db = DATABASES["default"]
        _on_file = _db["ENGINE"] == "tarot_club.sqlite" and _db["NAME"] not in ("", ":memory:")
        LOCAL_SECRET_KEY_FILE = str(key_file_beside(_db["NAME"] if _on_file else _SQLITE_PATH))
        SECRET_KEY = local_key(Path(LOCAL_SECRET_KEY_FILE))

# Seals (scoring.sealing): each signed sheet is signed with this installation's Ed25519 key,
# made on first use in a private file kept out of the database and of archives. By default it
# sits beside the SQLite database (db.sqlite3.seal-key); production names a file it backs up.
if TESTING:
    _seal_default = os.path.join(tempfile.gettempdir(), f"tarot-club-test-{os.getpid()}.seal-key")
else:
    _db = DATABASES["default"]
    _on_file = _db["ENGINE"] == "tarot_club.sqlite" and _db["NAME"] not in ("", ":memory:")
    _seal_default = str(_db["NAME"] if _on_file else _SQLITE_PATH) + ".seal-key"
SEAL_KEY_FILE = os.environ.get("DJANGO_SEAL_KEY_FILE", "").strip() or _seal_default
# Who seals, a name the organiser chooses: signed with every seal and shown on the verification
# page of every sheet sealed here. Unset: the first club page's name (scoring.sealing), never
# the computer's name.
INSTALLATION_NAME = " ".join(os.environ.get("DJANGO_INSTALLATION_NAME", "").split())[:100]

# Background jobs (scoring/jobs): queued in the database, run by `manage.py jobs_worker`; their
# files go to a folder every machine of the deployment shares.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
if TESTING:
    _jobs_default = os.path.join(tempfile.gettempdir(), f"tarot-club-test-{os.getpid()}.jobs")
else:
    _jobs_default = str(_db["NAME"] if _on_file else _SQLITE_PATH) + ".jobs"
JOBS_DIR = os.environ.get("DJANGO_JOBS_DIR", "").strip() or _jobs_default
JOBS_STALE_SECONDS = float(os.environ.get("DJANGO_JOBS_STALE_SECONDS", "") or 60)
# Signed score sheets' PDF pages, kept once drawn in JOBS_DIR/pages for the next round's or
# tournament's PDF (scoring/documents/pdf/pages.py): at most this many MB (0: none kept).
SHEET_PAGES_MB = float(os.environ.get("DJANGO_SHEET_PAGES_MB", "") or 200)
# Finished jobs, their queue rows and their files are removed after this many days (the
# worker does it every hour; `manage.py jobs_purge` too).
JOBS_RETENTION_DAYS = float(os.environ.get("DJANGO_JOBS_RETENTION_DAYS", "") or 7)
# Tests only: a pause after each sheet, so that a test can stop a worker mid-job.
JOBS_TEST_STEP_SECONDS = float(os.environ.get("DJANGO_JOBS_TEST_STEP_SECONDS", "") or 0)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The app's public address in table links and QR codes (scoring.links): `make club` sets it
# to the room's address; unset, pages use the address they were requested at and commands
# http://127.0.0.1:8000.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "fr"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Public pages are kept once per version (scoring/pagecache.py): in this process on a laptop, in
# Redis shared by every app server when REDIS_URL names one (its memory limit is Redis's own
# maxmemory, see the README), behind a small in-process tier of PAGE_CACHE_LOCAL_MB. Tests never
# use Redis here: they clear the cache between tests.
REDIS_URL = "" if TESTING else os.environ.get("REDIS_URL", "")
PAGE_CACHE_LOCAL_MB = float(os.environ.get("PAGE_CACHE_LOCAL_MB", "8"))
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": os.environ.get("REDIS_KEY_PREFIX", "tarot"),
        "TIMEOUT": 600,
        "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

# Production hardening: on whenever debug is off, unless explicitly disabled (e.g. plain HTTP
# on a referee's laptop served to the room: DJANGO_SECURE=0).
SECURE = env_bool("DJANGO_SECURE", default=not DEBUG and not TESTING)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_HSTS_SECONDS = 31536000 if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
# X-Forwarded-Proto says the request came in over HTTPS only when a trusted proxy set it:
# without one (TRUSTED_PROXIES = 0) any client could send it and skip the HTTPS redirect.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXIES else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # One line per page render (page, version, ms): renders per version, counted across servers.
    "loggers": {"tarot.pagecache": {"level": os.environ.get("PAGE_CACHE_LOG_LEVEL", "INFO")}},
}
