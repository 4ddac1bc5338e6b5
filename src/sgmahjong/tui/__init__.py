"""The terminal table (Textual): renders each seat's view and submits actions; no rules here."""

from .session import PlayConfig, Session

__all__ = ["PlayApp", "PlayConfig", "Session"]


def __getattr__(name: str) -> object:
    if name == "PlayApp":  # Textual is imported only when the app is wanted
        from .app import PlayApp
        return PlayApp
    raise AttributeError(name)
