"""The web server's settings: database, pacing, timeouts and limits (short ones in tests)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .clock import Clock, MonotonicClock
from .core.seats import Timing
from .limits import WebLimits

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


@dataclass
class WebConfig:
    """Settings of one server. Times are in seconds."""

    database_url: str | None = None      # None: $SGMAHJONG_DATABASE_URL or the data dir file
    ai_delay: float = 0.6                # pause after each AI move, so people can follow
    disconnect_grace: float = 30.0       # a disconnected player's turns go to the AI after
    next_hand_delay: float = 30.0        # the longest wait for "ready" between hands
    claim_window: float = 10.0           # a human's claim offer is passed after (0: never)
    turn_limit: float = 60.0             # the stand-in plays a human's turn after (0: never)
    presence_interval: float = 1.0       # who is connected is broadcast at most this often
    rate: float = 10.0                   # client messages per second, per connection
    burst: float = 30.0                  # ... and at once
    max_refusals: int = 200              # rate-limited messages before the socket is closed
    hello_timeout: float = 10.0          # a socket must say hello within this
    # a socket that sends nothing (the page pings every 5 s) for this long is closed
    # (4408) on the table clock (0: never)
    idle_timeout: float = 300.0
    allow_seed: bool = False             # let a table's creator choose the deal (tests)
    allowed_origins: tuple[str, ...] = ()   # extra websocket origins (a proxy's address)
    # names the Host header may carry (DNS rebinding: a foreign name is refused)
    allowed_hosts: tuple[str, ...] = LOCAL_HOSTS
    allow_ip_hosts: bool = False         # any IP address as Host (serving on 0.0.0.0)
    limits: WebLimits = field(default_factory=WebLimits)
    resume_on_startup: bool = True       # load and run unfinished tables when the app starts
    send_queue: int = 4096               # messages queued for a slow socket before closing it
    # several servers share the database (PostgreSQL): each plays the tables it holds the
    # lease of and relays the others' sockets (sgmahjong.web.peers)
    shared: bool = False
    # every table timer reads this clock (tests pass a ManualClock and move it by hand)
    clock: Clock = field(default_factory=MonotonicClock)
    # processes that think for the AI, hint and review (None: one per core; 0: threads)
    ai_processes: int | None = None

    def timing(self) -> Timing:
        """The table timers, as the table core takes them."""
        return Timing(self.ai_delay, self.disconnect_grace, self.next_hand_delay,
                      self.claim_window, self.turn_limit, self.presence_interval)


__all__ = ["LOCAL_HOSTS", "WebConfig"]
