"""The web table: ``sgmahjong serve`` (FastAPI), one websocket per seat, a page in plain JS.

Holds no rules: the engine decides what is legal and what each seat may see; the server
owns the only game state and stores every table as a numbered event log (``docs/web.md``).
"""

from .app import create_app
from .config import WebConfig

__all__ = ["WebConfig", "create_app"]
