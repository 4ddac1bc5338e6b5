"""The guided first hand in the terminal: the table, with a coach in the hints panel.

The hand is :mod:`sgmahjong.render.lesson`'s fixed deal, played on the real engine; the
opponents follow the script. At each step the coach says what to do and accepts only that
(Space goes on after a note); anything else gets a reminder and changes nothing. Q twice
leaves the lesson, as it leaves a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from textual import events
from textual.binding import Binding, BindingType

from ..game import Action, Discard, PlayerView
from ..render import lesson
from ..render.lesson import STEPS, LessonStep
from .hints import Hint
from .session import PlayConfig, Session
from .table import TableScreen


class _Scripted:
    """The lesson's scripted opponent as an AI player."""

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return lesson.opponent(view, legal)


class LessonSession(Session):
    """A one-hand session on the lesson's deal, against the scripted opponents. The hand
    is never finished into the match, so no record is written (it is not the player's own
    game)."""

    def __init__(self, ai_delay: float = 0.35) -> None:
        names = tuple(n.lower() for n in lesson.LESSON_NAMES[1:])
        super().__init__(PlayConfig(rules=lesson.LESSON_RULES, quick=True,
                                    opponents=names,  # type: ignore[arg-type]
                                    seed=0, hints=True, ai_delay=ai_delay,
                                    walls=[lesson.lesson_wall()]))
        self.agents = [None, _Scripted(), _Scripted(), _Scripted()]

    def hands_label(self) -> str:
        return "Guided first hand"

    def keep_game(self) -> Path | None:
        return None   # a lesson, not the player's own game: nothing is saved


class LessonScreen(TableScreen):
    """The table with the coach: the hints panel holds the coach's step."""

    # on a narrow terminal the coach under the board gets room for a whole step; once the
    # hand is over the breakdown is all there is to read, so the coach takes the board's place
    CSS = TableScreen.CSS + """
    #main.narrow #hints-panel { max-height: 13; }
    #main.narrow.coach-only #board { display: none; }
    #main.narrow.coach-only #hints-panel { height: 1fr; max-height: 100%; }
    """
    AUTO_HIDE_HINTS = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "next", "Go on"),
    ]
    QUIT_PROMPT = ("[b]Leave the guided hand?[/] Press Q again (a lesson is not saved: "
                   "L starts it again).")

    def __init__(self, session: LessonSession) -> None:
        super().__init__(session)
        self.step_index = 0

    @property
    def step(self) -> LessonStep:
        return STEPS[self.step_index]

    def on_mount(self, event: events.Mount) -> None:
        # instead of the table's own (Textual would run both): the coach is the point of
        # the lesson, so the panel stays in sight, even on a narrow terminal
        event.prevent_default()
        self.on_resize()
        self.start_hand()
        # once laid out, a short terminal scrolls the board down to the hand
        self.call_after_refresh(self.refresh_table)

    def end_hand(self) -> None:
        # no breakdown dialog and no stars: the coach's last step is the breakdown
        self.refresh_table()

    def refresh_table(self) -> None:
        if self.session.in_hand:
            self.query_one("#main").set_class(self.session.game.ended, "coach-only")
        super().refresh_table()

    def _hint(self, legal: list[Action]) -> Hint:
        step = self.step
        done = self.step_index + 1
        lines = [f"[b]Coach · step {done} of {len(STEPS)}[/]", f"[b]{escape(step.title)}[/]"]
        if step is STEPS[-1] and self.session.game.ended:
            lines += [escape(x) for x in lesson.breakdown_lines(self.session.game)]
        else:
            lines.append(escape(step.text))
        if step.expect is None:
            lines.append("[b]Press Space to go on.[/]")
        lines.append("[dim]Q twice leaves the lesson.[/]")
        suggest = step.expect.tile if isinstance(step.expect, Discard) else None
        return Hint(lines, suggest)

    def act(self, action: Action) -> None:
        if action != self.step.expect:
            self.message = f"[yellow]{escape(lesson.refusal(self.step))}[/]"
            self.selected = None
            self.refresh_table()
            return
        self.step_index += 1
        super().act(action)

    def _not_possible(self, kind: str, legal: list[Action]) -> str:
        # the coach's own words: what this step asks for
        return f"[yellow]{escape(lesson.refusal(self.step))}[/]"

    def action_next(self) -> None:
        if self.step.expect is not None:
            self.message = f"[yellow]{escape(lesson.refusal(self.step))}[/]"
            self.refresh_table()
            return
        if self.step_index == len(STEPS) - 1:
            self.play_app.back_to_setup()
            return
        self.step_index += 1
        self.message = ""
        self.refresh_table()

    def _message(self, v: object, legal: list[Action]) -> str:
        if not self.message and self.step.expect is None:
            return "[b]Press Space to go on.[/]"
        return super()._message(v, legal)
