"""The web app for players and game masters (FastAPI, Jinja2 templates, htmx).

``create_app(settings)`` builds the application; ``nightfall serve`` runs it with uvicorn
and the deadline scheduler. Module by responsibility:

- ``app.py`` the factory, middleware and error pages; ``settings.py`` the settings
- ``security.py`` private links (token → game and player), 404 for every wrong token,
  security headers; ``csrf.py`` the signed double-submit CSRF cookie
- ``i18n.py`` the page's language and the reader's time zone; ``render.py`` templates,
  flash messages
- ``routes/`` public, player, gm, api and sse (live updates)
- ``pages.py`` what the pages show (thread, notices, dashboard, resolution preview);
  ``forms.py`` legal commands as forms; ``markup.py`` the role-play conventions;
  ``notices.py``, ``explain.py``, ``texts.py`` sentences for notices, roles, items, log
- ``demo.py`` the ready demo game; ``server.py`` running it all (with the scheduler);
  ``live.py`` the PostgreSQL listener that wakes live streams in every process
"""

from nightfall.web.app import create_app
from nightfall.web.settings import Settings

__all__ = ["Settings", "create_app"]
