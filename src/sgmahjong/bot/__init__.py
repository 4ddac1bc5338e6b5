"""The JSON Lines bot protocol: messages, a subprocess transport, a mock transport, and
``ProcessAgent``, which plays a bot as an Agent. See ``docs/protocol.md``."""

from .agent import MAX_TIMEOUTS, ProcessAgent
from .table import play_game, play_match
from .transport import MockTransport, ProcessTransport, Transport
from .wire import PROTOCOL_VERSION, BotError, event_message, hello, redact, request, view_json

__all__ = ["MAX_TIMEOUTS", "PROTOCOL_VERSION", "BotError", "MockTransport", "ProcessAgent",
           "ProcessTransport", "Transport", "event_message", "hello", "play_game",
           "play_match", "redact", "request", "view_json"]
