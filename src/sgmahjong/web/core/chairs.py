"""Who sits where: newcomers taking a free or an AI chair, and the creator's start."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .driver import Driver
from .messages import (
    Join,
    Outbox,
    SaveSeat,
    SetStatus,
)
from .seating import TableError, ai_names, check_name, default_standin, unique_name
from .seats import Slot, TableChoices

if TYPE_CHECKING:
    pass




class Chairs(Driver):
    """The seating half of :class:`~.table.TableCore`."""

    options: TableChoices

    def _join(self, cmd: Join, out: Outbox) -> int:
        """Seat a newcomer: in a free chair before the start, or in an AI's chair between
        hands (from the next hand on). ``player`` (1-3) picks the chair, else the first."""
        player = cmd.player
        if player is not None and not 1 <= player <= 3:
            raise TableError("bad-player", f"there is no seat {player} to take: choose "
                                            "1, 2 or 3 (seat 0 is the creator's)")
        if self.status == "finished":
            raise TableError("finished", "the match is over: you can still watch it or "
                                         "download its record")
        if self.options.get("ladder"):
            # the ladder's stars are the creator's; company would make them meaningless
            raise TableError("solo", "a practice-ladder table is played alone: you can "
                                     "watch it")
        taking_over = self.status == "playing"
        want = "ai" if taking_over else "open"
        if player is None:
            slot = next((s for s in self.slots if s.kind == want), None)
            if slot is None:
                raise TableError("full", "no AI seat is left to take over: watch instead"
                                 if taking_over else "every seat is taken")
        else:
            slot = self.slots[player]
            if slot.kind != want:
                raise TableError("seat-taken", f"seat {player} ({slot.name}) is not "
                                 + ("an AI seat" if taking_over else "free"))
        self.check_name(cmd.name)
        g = self.game
        if taking_over and g is not None and not g.ended:
            raise TableError("mid-hand", "an AI seat can be taken between hands: try "
                                         "again when this hand ends")
        slot.name, slot.kind, slot.token_hash = cmd.name, "human", cmd.token_hash
        slot.away_since = self.now
        if taking_over:
            # the hands before this one were the AI's: no review of them is theirs
            slot.human_from = len(self.match.hands) + (1 if g is not None else 0)
            slot.level = self.options.get("standin", default_standin())
            slot.agent = None
            slot.ready = False
            slot.newcomer = True
            slot.forget_request()
            if self.bankers:   # between hands (not before the first deal)
                # the newcomer needs time to connect and read the last hand's summary
                due = self.now + self.timing.next_hand_delay
                self.next_hand_at = due if self.next_hand_at is None else max(
                    self.next_hand_at, due)
        out.add(self._seat_row(slot))
        self._table_changed = True
        return slot.player

    def check_name(self, name: str) -> None:
        """Refuse a newcomer's name that a seat here has, or (before the start) that an
        AI player will get."""
        ais = [s.name for s in self.slots if s.kind == "ai"]
        if self.status == "waiting":
            ais += ai_names(self.options.get("ai", []))
        check_name(name, [s.name for s in self.slots if s.kind == "human"], ais)

    def _start(self, player: int, out: Outbox) -> None:
        if player != 0:
            raise TableError("not-creator", "only the table's creator can start the game")
        if self.status == "expired":
            raise TableError("expired", "this table was not started in time and has "
                                        "closed: set up a new one")
        if self.status != "waiting":
            raise TableError("started", "the game has already started")
        levels = list(self.options.get("ai", []))
        taken = {s.name for s in self.slots if s.kind == "human"}
        for s in self.slots:
            if s.kind == "open":
                s.kind = "ai"
                s.level = levels[s.player - 1] if 0 < s.player <= len(levels) else s.level
                s.name = unique_name(s.level.title(), taken)
                taken.add(s.name)
                out.add(self._seat_row(s))
        self.status = "playing"
        out.add(SetStatus("playing"))
        self._table_changed = True

    @staticmethod
    def _seat_row(s: Slot) -> SaveSeat:
        return SaveSeat(s.player, s.name, s.kind, s.level, s.token_hash)


__all__ = ["Chairs"]
