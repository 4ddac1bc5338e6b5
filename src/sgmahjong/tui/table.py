"""The table screen: your hand, the other seats, claims by key or click, hints on the side."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar

from rich.markup import escape
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Static
from textual.worker import Worker, WorkerState

from ..agents.danger import discard_history
from ..game import (
    Action,
    BonusExposed,
    Chow,
    Claimed,
    Discard,
    Discarded,
    Event,
    HandDrawn,
    Kong,
    KongDeclared,
    Pass,
    Phase,
    Pong,
    Win,
    Won,
)
from ..render.text import markup
from ..tiles import Seat, Tile
from .clock import Handle
from .dialogs import HandOverScreen, HelpScreen, MatchOverScreen
from .hints import Hint, bao_warnings, claim_label, hint_for, tiles_markup, win_lines
from .reasons import why_not
from .widgets import WIND_NAMES, TileWidget, name_markup, seat_markup

if TYPE_CHECKING:
    from .app import PlayApp
    from .session import Session

MAX_TILES = 14
REVIEW_WORKER = "review-"
"""The review of hand n is worked out by the worker named ``review-n``."""
CLAIM_KEYS = {"win": "W", "pong": "P", "chow": "C", "kong": "K", "skip": "S"}


def action_label(a: Action) -> str:
    """How a claim choice reads on its button."""
    if isinstance(a, Chow):
        return "Chow " + " ".join(markup(Tile(a.tile + i)) for i in range(3))
    if isinstance(a, Kong):
        how = {"concealed": "concealed", "added": "added to pong", "claimed": "claimed"}
        return f"Kong {markup(a.tile)} ({how.get(a.kind, a.kind)})"
    return type(a).__name__


NARROW = 110
"""Terminals narrower than this show the hints under the board, not beside it."""
PACED = (Discarded, Claimed, KongDeclared)
"""An opponent's move after which the table pauses (``ai_delay``) so the player sees it."""


def tiles_left_text(n: int) -> str:
    """The live draws left before the hand is drawn (the engine's ``live_remaining``: the
    tiles kept back at the end of the wall are not counted, as they are never drawn)."""
    return f"{n} tile{'' if n == 1 else 's'} left to draw"


def draws_left_text(n: int) -> str:
    """The same count, shorter, for a narrow top line: ``"80 draws left"``."""
    return f"{n} draw{'' if n == 1 else 's'} left"


class Board(VerticalScroll):
    """The opponents, the tile on offer and your own box, kept scrolled to the bottom (your
    hand and its prompt) whenever its room or its content changes: the hints opening under
    it, a prompt of two lines, a smaller terminal."""

    can_focus = False   # the arrows move along the hand, never scroll the board

    def on_resize(self, event: events.Resize) -> None:
        # sent once laid out anew, so the scroll range is the new one
        self.scroll_end(animate=False, immediate=True)


class TableScreen(Screen[None]):
    """Play the match: one screen for every hand."""

    CSS = """
    TableScreen { layout: vertical; }
    #status { height: 1; background: $panel; padding: 0 1; }
    #main { height: 1fr; }
    /* room kept for the scrollbar: one appearing must not narrow the board and wrap its
       lines anew after it was scrolled to your hand */
    #board { width: 1fr; scrollbar-gutter: stable; }
    #opponents { height: auto; }
    .seat { border: round $primary-darken-2; padding: 0 1; width: 1fr; height: auto;
            min-height: 5; max-height: 10; }
    #center { height: auto; min-height: 2; padding: 0 1; }
    #me { border: round $accent; padding: 0 1; height: auto; }
    #hand { height: 5; }
    #caret { height: 1; }
    #actions { height: 1; }
    #actions Button { min-width: 8; margin: 0 1 0 0; }
    #message { height: auto; min-height: 1; }
    #hints-panel { width: 38; border: round $success; padding: 0 1; height: 1fr; }
    #hints-panel.hidden { display: none; }
    /* a narrow terminal has no room beside a 14-tile hand: the hints go under the board */
    #main.narrow { layout: vertical; }
    #main.narrow #hints-panel { width: 1fr; height: auto; max-height: 8; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("enter", "enter", "Pick/throw"),
        # the claims are not in the footer: their buttons show when they are possible,
        # and at 80 columns the footer has room for Quit only without them
        Binding("w", "claim('win')", "Win", show=False),
        Binding("p", "claim('pong')", "Pong", show=False),
        Binding("c", "claim('chow')", "Chow", show=False),
        Binding("k", "claim('kong')", "Kong", show=False),
        Binding("s", "claim('skip')", "Skip", show=False),
        Binding("1", "choose(0)", "1", show=False),
        Binding("2", "choose(1)", "2", show=False),
        Binding("3", "choose(2)", "3", show=False),
        Binding("4", "choose(3)", "4", show=False),
        Binding("escape", "cancel", "Back", show=False),
        Binding("h", "toggle_hints", "Hints"),
        Binding("pageup", "scroll_hints(-1)", "Hints ↑", show=False),
        Binding("pagedown", "scroll_hints(1)", "Hints ↓", show=False),
        Binding("r", "pages", "Rules"),
        Binding("question_mark", "help", "Keys"),
        Binding("t", "app.toggle_tiles", "Tiles", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.cursor = 0
        self.selected: int | None = None
        self.choices: list[Action] = []
        self.order: list[Tile] = []
        self.apart = False
        self.log_lines: list[str] = []
        self.message = ""
        self._pace: Handle | None = None
        self._claim_timer: Handle | None = None
        self._bar_state: tuple[tuple[str, str], ...] = ()
        self._hint_cache: tuple[object, Hint] | None = None
        self._narrow: bool | None = None
        # the hints were hidden for want of room, not by the player: they come back when
        # the terminal is widened, and the board says how to show them meanwhile
        self.squeezed = False

    @property
    def play_app(self) -> PlayApp:
        return self.app  # type: ignore[return-value]

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            # neither scroller takes the keys: the arrows move along the hand, PgUp PgDn
            # scroll the hints, whatever was clicked last
            with Board(id="board"):
                with Horizontal(id="opponents"):
                    yield Static(id="left", classes="seat")
                    yield Static(id="top", classes="seat")
                    yield Static(id="right", classes="seat")
                yield Static(id="center")
                with Vertical(id="me"):
                    yield Static(id="me-info")
                    with Horizontal(id="hand"):
                        for i in range(MAX_TILES):
                            yield TileWidget(i, id=f"tile-{i}")
                    yield Static(id="caret")
                    yield Horizontal(id="actions")
                    yield Static(id="message")
            with VerticalScroll(id="hints-panel",
                                classes="" if self.session.config.hints else "hidden") as panel:
                panel.can_focus = False
                yield Static(id="hints")
        yield Footer()

    AUTO_HIDE_HINTS = True
    """Hide the hints on a narrow terminal (the guided hand keeps its coach in sight)."""

    def on_resize(self) -> None:
        narrow = self.app.size.width < NARROW
        self.query_one("#main").set_class(narrow, "narrow")
        if narrow != self._narrow and self.AUTO_HIDE_HINTS:
            panel = self.query_one("#hints-panel")
            if narrow and not panel.has_class("hidden"):
                panel.add_class("hidden")
                self.squeezed = True
            elif not narrow and self.squeezed:
                panel.remove_class("hidden")
                self.squeezed = False
        self._narrow = narrow
        if self.session.in_hand:
            self.refresh_table()

    def on_mount(self) -> None:
        self.on_resize()
        self.start_hand()

    def on_unmount(self) -> None:
        self._cancel_timers()

    def _cancel_timers(self) -> None:
        for handle in (self._pace, self._claim_timer):
            if handle is not None:
                handle.cancel()
        self._pace = self._claim_timer = None

    # ------------------------------------------------------------------ flow

    def start_hand(self) -> None:
        s = self.session
        s.start_hand()
        self.log_lines = []
        self.selected = None
        self.choices = []
        self.message = ""
        self._note(s.game.events)
        self.pump()

    def pump(self) -> None:
        """Let the AI seats play until the human must decide or the hand ends, pausing
        ``ai_delay`` after each move the player should see."""
        self._pace = None
        s = self.session
        if not s.in_hand:
            return
        delay = self.play_app.ai_delay
        guard = 0
        while not s.game.ended and not s.human_legal() and s.ai_waiting():
            events = s.ai_step()
            self._note(events)
            for notice in s.take_notices():
                # an AI that failed: said once, on the line the player reads next
                self.message = f"[yellow]{escape(notice)}[/]"
            guard += 1
            # No pause when the move hands the decision to the player (the engine deals
            # their draw in the same step): the table must show their turn, cursor on the
            # drawn tile, from the moment their keys count.
            if (delay > 0 and any(isinstance(e, PACED) for e in events)
                    and not s.game.ended and not s.human_legal()):
                self.refresh_table()
                self._pace = self.play_app.clock.call_later(delay, self.pump)
                return
            if guard > 2000:  # pragma: no cover - a stuck engine must not hang the UI
                break
        if s.game.ended:
            self.refresh_table()
            self.end_hand()
            return
        self._enter_decision()
        self.refresh_table()

    def _enter_decision(self) -> None:
        """Put the cursor on the drawn tile at the start of the human's turn; start the
        claim timer, if the player set one, when a claim is offered."""
        legal = self.session.human_legal()
        if any(isinstance(a, Discard) for a in legal):
            self._layout_hand()
            if self.selected is None:
                self.cursor = max(0, len(self.order) - 1)
        elif Pass() in legal and self.session.config.claim_timer > 0:
            offer = len(self.session.game.events)
            self._claim_timer = self.play_app.clock.call_later(
                self.session.config.claim_timer, lambda: self._claim_timeout(offer))

    def _claim_timeout(self, offer: int) -> None:
        """Skip the claim offer made when the game had ``offer`` events, if still open."""
        self._claim_timer = None
        s = self.session
        if s.in_hand and len(s.game.events) == offer and Pass() in s.human_legal():
            self.act(Pass())

    def end_hand(self) -> None:
        s = self.session
        game = s.game
        seat = s.human_seat
        stars = self.play_app.award_hand_stars(game)
        # the players by seat in this hand, read before the deal may pass: the review
        # names them as the breakdown does ("Owl won"), not by their winds
        names = [self._seat_name(Seat(i)) for i in range(4)]
        record = s.finish_hand()
        self._start_review(len(s.hands) - 1, list(game.events), seat, names)
        self.app.push_screen(HandOverScreen(s, game, stars, record.banker), self._after_hand)

    def _start_review(self, hand: int, events: list[Event], seat: Seat,
                      names: list[str]) -> None:
        """Review the player's hand in a worker thread: the dialogs show it when it is in,
        and the table never waits for it."""
        self.run_worker(partial(self.session.review_hand, events, seat, names),
                        name=f"{REVIEW_WORKER}{hand}", group=REVIEW_WORKER, thread=True,
                        exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        name = event.worker.name
        if not name.startswith(REVIEW_WORKER):
            return
        hand = int(name.removeprefix(REVIEW_WORKER))
        if event.state is WorkerState.SUCCESS:
            self.session.reviews[hand] = event.worker.result
        elif event.state is WorkerState.ERROR:
            error = event.worker.error
            self.session.review_failed[hand] = (f"{type(error).__name__}: {error}"
                                                if error is not None else "it failed")
        else:
            return
        for screen in self.app.screen_stack:
            if isinstance(screen, (HandOverScreen, MatchOverScreen)):
                screen.show_review()

    def _after_hand(self, _: object = None) -> None:
        s = self.session
        if s.match_over:
            stars = self.play_app.award_match_stars()
            self.app.push_screen(MatchOverScreen(s, stars), self._after_match)
        else:
            self.start_hand()

    def _after_match(self, again: object = None) -> None:
        self.play_app.back_to_setup()

    def act(self, action: Action) -> None:
        """Submit the human's action (the engine checks it) and play on."""
        s = self.session
        if action not in s.human_legal():
            self.message = "[red]That is not possible now.[/]"
            self.refresh_table()
            return
        if self._claim_timer is not None:  # the offer is answered
            self._claim_timer.cancel()
            self._claim_timer = None
        self.selected = None
        self.choices = []
        self.message = ""
        self._note(s.submit(action))
        self.pump()

    # ------------------------------------------------------------------ events to text

    def _seat_name(self, seat: Seat) -> str:
        s = self.session
        return s.names[s.player_at(seat)]

    def _note(self, events: list[Event]) -> None:
        for e in events:
            line = self._event_line(e)
            if line:
                self.log_lines.append(line)
        self.log_lines = self.log_lines[-4:]

    def _event_line(self, e: Event) -> str | None:
        if isinstance(e, Discarded):
            return f"{self._seat_name(e.seat)} threw {name_markup(e.tile)}"
        if isinstance(e, Claimed):
            return f"{self._seat_name(e.seat)}: {e.kind} on {name_markup(e.tile)}!"
        if isinstance(e, KongDeclared):
            return f"{self._seat_name(e.seat)}: {e.kind} kong of {name_markup(e.tile)}"
        if isinstance(e, BonusExposed) and e.seat == self.session.human_seat:
            return f"You set aside {name_markup(e.tile)}"
        if isinstance(e, Won):
            who = self._seat_name(e.seat)
            return f"[b]{who} {'win' if who == 'You' else 'wins'}![/]"
        if isinstance(e, HandDrawn):
            return "[b]Drawn hand[/]"
        return None

    # ------------------------------------------------------------------ rendering

    def _layout_hand(self) -> None:
        """Your concealed tiles sorted, the drawn tile apart at the end."""
        v = self.session.view()
        tiles = sorted(t for t in v.concealed if not t.is_bonus)
        drawn = v.last_drawn
        self.apart = False
        my_turn = v.phase is Phase.TURN and v.turn == v.seat and not v.must_discard
        if my_turn and drawn is not None and drawn in tiles and len(tiles) % 3 == 2:
            tiles.remove(drawn)
            tiles.append(drawn)
            self.apart = True
        self.order = tiles
        if self.order:
            self.cursor = min(self.cursor, len(self.order) - 1)

    def _latest_discarder(self) -> Seat | None:
        for e in reversed(self.session.game.events):
            if isinstance(e, Discarded):
                return e.seat
            if isinstance(e, Claimed):
                return None
        return None

    def refresh_status(self) -> None:
        s = self.session
        if not s.in_hand:
            return
        v = s.view()
        hand = s.hands_label()
        winds = f"{WIND_NAMES[v.round_wind]} round · you sit {WIND_NAMES[v.seat]}"
        rules = f"{s.rules.name} rules"
        left = tiles_left_text(v.live_remaining)
        short = draws_left_text(v.live_remaining)
        brief = hand.replace(" of ", "/")
        # the longest line that fits (the bar has a column of padding each side); the
        # rules stay to the end, the words go first
        room = self.app.size.width - 2
        lines = [f"Singapore Mahjong · {hand} · {winds} · {left} · {rules}",
                 f"{hand} · {winds} · {left} · {rules}",
                 f"{brief} · {winds} · {left} · {rules}",
                 f"{brief} · {winds} · {short} · {rules}"]
        line = next((x for x in lines if len(x) <= room), lines[-1])
        self.query_one("#status", Static).update(Text(line, no_wrap=True,
                                                      overflow="ellipsis"))

    def refresh_table(self) -> None:
        s = self.session
        if not s.in_hand:
            return
        v = s.view()
        self.refresh_status()
        latest = self._latest_discarder()
        me = v.seat
        places = {"right": Seat((me + 1) % 4), "top": Seat((me + 2) % 4),
                  "left": Seat((me + 3) % 4)}
        where = {"right": "right", "top": "across", "left": "left, you chow from here"}
        for pos, seat in places.items():
            p = s.player_at(seat)
            self.query_one(f"#{pos}", Static).update(Text.from_markup(seat_markup(
                v, seat, s.names[p], where[pos], latest, s.scores[p] + v.seats[seat].score)))
        self.query_one("#center", Static).update(Text.from_markup(self._center(v)))
        self._layout_hand()
        legal = s.human_legal()
        can_throw = any(isinstance(a, Discard) for a in legal)
        hint = self._hint(legal) if self._hints_on() else None
        for i in range(MAX_TILES):
            w = self.query_one(f"#tile-{i}", TileWidget)
            tile = self.order[i] if i < len(self.order) else None
            w.show(tile)
            w.set_class(self.apart and i == len(self.order) - 1, "apart")
            w.set_class(can_throw and i == self.cursor, "cursor")
            w.set_class(can_throw and i == self.selected, "selected")
            w.set_class(hint is not None and tile is not None and tile == hint.suggest,
                        "suggested")
        self.query_one("#caret", Static).update(self._caret(can_throw, hint))
        sv = v.me
        info = seat_markup(v, me, "You", "your seat", latest,
                           s.scores[0] + sv.score).split("\n")
        self.query_one("#me-info", Static).update(Text.from_markup("\n".join(info)))
        self._refresh_actions(legal)
        self.query_one("#message", Static).update(Text.from_markup(self._message(v, legal)))
        panel = self.query_one("#hints", Static)
        if self._hints_on():
            lines = hint.lines if hint else []
            panel.update(Text.from_markup("[b]Hints[/] [dim](H hides)[/]\n" + "\n".join(lines)))
        # a short terminal: keep your hand and the prompt in view, once laid out anew (the
        # prompt, the hints and the terminal's size all change the room the board has)
        self.call_after_refresh(self._hand_in_sight)
        self.refresh_bindings()

    def _hand_in_sight(self) -> None:
        if self.is_attached:
            self.query_one("#board", Board).scroll_end(animate=False, immediate=True)

    def _caret(self, can_throw: bool, hint: object) -> Text:
        """A line under the hand: ▲▲ under the cursor, ** under the suggested discard (ASCII,
        so no emoji font is needed)."""
        suggest = getattr(hint, "suggest", None)
        out = Text()
        for i, t in enumerate(self.order):
            if self.apart and i == len(self.order) - 1:
                out.append("  ")
            if can_throw and i == self.cursor:
                out.append(" ▲▲ ", style="bold")
            elif can_throw and t == suggest:
                out.append(" ** ", style="bold yellow")
            else:
                out.append("    ")
        return out

    def _hint(self, legal: list[Action]) -> Hint:
        """The hints panel (worked out once per table state; arrow keys reuse it)."""
        game = self.session.game
        key = (id(game), len(game.events), tuple(legal))
        if self._hint_cache is None or self._hint_cache[0] != key:
            if game.ended:
                wins = [e for e in game.events if isinstance(e, Won)]
                lines = [x for w in wins for x in win_lines(w, self._seat_name)]
                hint = Hint(lines or ["[b]Drawn hand[/]: nobody won."])
            else:
                hint = hint_for(self.session.view(), legal, discard_history(game.events))
            self._hint_cache = (key, hint)
        return self._hint_cache[1]

    def _center(self, v: object) -> str:
        view = self.session.view()
        log = " · ".join(self.log_lines[-3:])
        if view.window_tile is not None and view.phase is not Phase.TURN:
            offer = markup(view.window_tile, on_tile=True)
            return (f"[b]{self._seat_name(view.turn)} threw[/] {offer} "
                    f"{name_markup(view.window_tile)}\n[dim]{log}[/]")
        if self.squeezed and self.query_one("#hints-panel").has_class("hidden"):
            # in a line of the board's own, where it covers nothing (a notice would lie
            # over the opponents' boxes)
            return (f"[dim]{log}[/]\n[dim]The terminal is narrow: H shows the hints under "
                    "the board.[/]")
        return f"[dim]{log}[/]"

    def _message(self, v: object, legal: list[Action]) -> str:
        view = self.session.view()
        if self.message:
            return self.message
        if self.choices:
            return "Choose with 1-4 (or click); Esc goes back."
        if self.session.game.ended:
            return "[b]The hand is over.[/]"
        if not legal:
            return f"[dim]Waiting for {self._seat_name(view.turn)}…[/]"
        if any(isinstance(a, Discard) for a in legal):
            if self.selected is not None and self.selected < len(self.order):
                t = self.order[self.selected]
                warn = " ".join(bao_warnings(view, t))
                return (f"Enter again (or click it) to throw {name_markup(t)}; arrows "
                        f"pick another. {warn}")
            extra = "  W to win!" if Win() in legal else ""
            return "[b]Your turn[/]: ←/→ choose a tile, Enter picks it, Enter again throws." + extra
        tile = view.window_tile
        kinds = [k for k in ("win", "pong", "chow", "kong")
                 if any(self._matches(a, k) for a in legal)]
        keys = [CLAIM_KEYS[k] + " " + k for k in kinds]
        what = "" if tile is None else f" {name_markup(tile)}"  # Tile 0 is the 1 Characters
        return (f"{self._seat_name(view.turn)} threw{what}: " + ", ".join(keys)
                + " or S skip." + self._preference(kinds, legal))

    def _preference(self, kinds: list[str], legal: list[Action]) -> str:
        """With two claims on offer, which one to take. A win always (it scores the hand
        now); between other claims the hints' choice, when the hints are shown."""
        others = [k for k in kinds if k != "win"]
        if "win" in kinds and others:
            return (f"\n[b]W is the better claim[/]: a win scores now, a "
                    f"{' or a '.join(others)} only brings you closer.")
        claims = [a for a in legal if not isinstance(a, Pass)]
        if len(claims) < 2 or not self._hints_on():
            return ""
        prefer = self._hint(legal).prefer
        if prefer is None:
            return ""
        if isinstance(prefer, Pass):
            return "\n[dim]Hint: none of these claims helps your hand; S skips.[/]"
        return f"\n[dim]Hint: {escape(claim_label(prefer))} is the better claim.[/]"

    def _refresh_actions(self, legal: list[Action]) -> None:
        bar = self.query_one("#actions", Horizontal)
        wanted: list[tuple[str, str]] = []
        if self.choices:
            for i, a in enumerate(self.choices):
                wanted.append((f"choose-{i}", f"{i + 1}: {action_label(a)}"))
            wanted.append(("cancel", "Esc: back"))
        else:
            for kind in ("win", "pong", "chow", "kong", "skip"):
                if any(self._matches(a, kind) for a in legal):
                    label = {"skip": "Skip"}.get(kind, kind.title())
                    wanted.append((kind, f"{CLAIM_KEYS[kind]}: {label}"))
            if self.selected is not None and any(isinstance(a, Discard) for a in legal):
                wanted.append(("throw", "Enter: Throw"))
        state = tuple(wanted)
        if state == self._bar_state:
            return
        self._bar_state = state
        bar.remove_children()
        buttons = []
        for key, text in wanted:
            b = Button(Text.from_markup(text), name=key, compact=True)
            b.can_focus = False
            buttons.append(b)
        if buttons:
            bar.mount(*buttons)

    def _hints_on(self) -> bool:
        return not self.query_one("#hints-panel").has_class("hidden")

    @staticmethod
    def _matches(a: Action, kind: str) -> bool:
        return {"win": isinstance(a, Win), "pong": isinstance(a, Pong),
                "chow": isinstance(a, Chow), "kong": isinstance(a, Kong),
                "skip": isinstance(a, Pass)}[kind]

    # ------------------------------------------------------------------ input

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # every key runs, possible or not: a claim that is not possible says why
        return True

    def action_move(self, step: int) -> None:
        if self.choices or not self.order:
            return
        self.cursor = (self.cursor + step) % len(self.order)
        self.message = ""
        self.refresh_table()

    def action_enter(self) -> None:
        if self.choices:
            return
        self._pick(self.cursor)

    def _pick(self, index: int) -> None:
        legal = self.session.human_legal()
        if not any(isinstance(a, Discard) for a in legal) or index >= len(self.order):
            if legal:
                self.message = "Not your turn to throw: choose a claim or S to skip."
                self.refresh_table()
            return
        self.cursor = index
        if self.selected == index:
            self.act(Discard(self.order[index]))
            return
        self.selected = index
        self.message = ""
        self.refresh_table()

    def on_tile_widget_clicked(self, message: TileWidget.Clicked) -> None:
        self._pick(message.index)

    def action_claim(self, kind: str) -> None:
        if not self.session.in_hand:
            return
        legal = self.session.human_legal()
        options = [a for a in legal if self._matches(a, kind)]
        if not options:
            self.message = self._not_possible(kind, legal)
            self.refresh_table()
            return
        if len(options) == 1:
            self.act(options[0])
            return
        self.choices = options
        self.refresh_table()

    def _not_possible(self, kind: str, legal: list[Action]) -> str:
        """What the message line says when a claim key has no move now."""
        why = why_not(self.session.view(), kind, legal, self._seat_name)
        return f"[yellow]{tiles_markup(why)}[/]"

    def action_choose(self, index: int) -> None:
        if index < len(self.choices):
            self.act(self.choices[index])

    def action_cancel(self) -> None:
        self.choices = []
        self.selected = None
        self.message = ""
        self.refresh_table()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        key = event.button.name or ""
        if key.startswith("choose-"):
            self.action_choose(int(key.split("-")[1]))
        elif key == "cancel":
            self.action_cancel()
        elif key == "throw":
            if self.selected is not None:
                self._pick(self.selected)
        else:
            self.action_claim(key)

    def action_toggle_hints(self) -> None:
        self.query_one("#hints-panel").toggle_class("hidden")
        self.squeezed = False   # the player's own choice from now on
        self.refresh_table()    # which keeps the hand in sight as the panel takes rows

    def action_scroll_hints(self, pages: int) -> None:
        panel = self.query_one("#hints-panel", VerticalScroll)
        if pages < 0:
            panel.scroll_page_up(animate=False)
        else:
            panel.scroll_page_down(animate=False)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def redraw_tiles(self) -> None:
        """Draw every tile again (the labels changed script)."""
        for w in self.query(TileWidget):
            w.tile = None
        self.refresh_table()

    def action_pages(self) -> None:
        """The learning pages for this table's rules; the hand waits underneath, and a
        claim timer stops while the player reads (it starts again on the way back)."""
        if self._claim_timer is not None:
            self._claim_timer.cancel()
            self._claim_timer = None
        self.play_app.show_pages(self.session.rules, closed=self._back_from_pages)

    def _back_from_pages(self, _: object = None) -> None:
        s = self.session
        if (s.in_hand and self._claim_timer is None and s.config.claim_timer > 0
                and Pass() in s.human_legal()):
            offer = len(s.game.events)
            self._claim_timer = self.play_app.clock.call_later(
                s.config.claim_timer, lambda: self._claim_timeout(offer))

    QUIT_PROMPT = ("[b]Leave the table?[/] Press Q again: the game is saved, this hand up "
                   "to now with it.")

    def action_quit_game(self) -> None:
        if self.message == self.QUIT_PROMPT:
            self.play_app.leave_game()
            return
        self.message = self.QUIT_PROMPT
        self.refresh_table()
