"""The setup screen: pick a ladder table, or choose rules, game length, opponents and hints."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Label, RadioButton, RadioSet, Select, Static

from ..rules.loading import PRESETS
from .ladder import GOALS, TABLES, stars_text, summary
from .session import PlayConfig, opponent_names

if TYPE_CHECKING:
    from .app import PlayApp

INTRO = ("[b]Singapore Mahjong[/] · play three garden animals, with hints that teach you")

GUIDE = ("[b]New to mahjong?[/] Press [b]L[/] for a guided first hand, or [b]R[/] for how "
         "to play, the rules used here, the tai table and the tiles. Tiles are marked "
         "萬 筒 索: boxes instead? Press [b]T[/] for letters.")


class SetupScreen(Screen[None]):
    """Choose a table and start."""

    # Everything fits in 80x24, the smallest terminal the game supports.
    CSS = """
    SetupScreen { align: center top; }
    #setup { width: 100; max-width: 100%; height: auto; padding: 0 1; }
    #progress { margin: 1 0 0 0; color: $warning; text-style: bold; }
    #busy { color: $accent; text-style: bold; display: none; }
    /* while the tables are built the notice takes the guide's place: both would not fit */
    #setup.busy #busy { display: block; }
    #setup.busy #guide { display: none; }
    #pick { margin: 1 0 0 0; }
    .ladder-row { height: auto; }
    .ladder-row Button { width: 22; margin: 0 1 0 0; content-align: left middle; }
    .ladder-row Static { width: 1fr; }
    #custom { border: round $primary; height: auto; padding: 0 1; margin: 1 0 0 0; }
    #custom Horizontal { height: auto; }
    #custom Label { width: 10; }
    #custom Select { width: 15; margin: 0 1 0 0; }
    #custom RadioSet { width: auto; layout: horizontal; }
    #custom RadioButton { width: auto; margin: 0 1 0 0; }
    #custom Checkbox { width: 1fr; }
    #guide { margin: 1 0 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "table(0)", "Garden gate", show=False),
        Binding("2", "table(1)", "Lily pond", show=False),
        Binding("3", "table(2)", "Old oak", show=False),
        Binding("g", "start", "Start my game"),
        Binding("l", "lesson", "Guided hand"),
        Binding("r", "pages", "Rules"),
        Binding("t", "app.toggle_tiles", "Tile letters"),
        Binding("question_mark", "help", "Keys"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, config: PlayConfig) -> None:
        super().__init__()
        self.config = config

    @property
    def play_app(self) -> PlayApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        progress = self.play_app.progress
        names = opponent_names()
        rules = self.config.rules
        rule_choices = [(p, p) for p in PRESETS]
        if rules not in PRESETS:  # a rule file from the command line stays the choice
            rule_choices.append((Path(rules).name, rules))
        with VerticalScroll(), Vertical(id="setup"):
            yield Static(Text.from_markup(INTRO), id="intro")
            yield Static(Text.from_markup(summary(progress)), id="progress")
            yield Static(id="busy")
            yield Static(Text.from_markup("[b]Pick a table[/]: a quick game of 4 hands "
                                          "(press 1, 2 or 3)"), id="pick")
            for i, t in enumerate(TABLES):
                with Horizontal(classes="ladder-row"):
                    yield Button(f"{i + 1}. {t.name:<11} {stars_text(progress, t.id)}",
                                 id=f"table-{t.id}", variant="primary" if i == 0 else "default",
                                 compact=True)
                    who = ", ".join(n.title() for n in t.opponents)
                    yield Static(f"{who} · {t.blurb}")
            stars = " · ".join(f"★ {text}" for _, text in GOALS)
            yield Static(Text.from_markup(f"[dim]Stars at each table: {stars}[/]"))
            with Vertical(id="custom") as custom:
                custom.border_title = "Or set up your own game"
                with Horizontal():
                    yield Label("Rules")
                    yield Select(rule_choices, value=rules, allow_blank=False, id="rules",
                                 compact=True)
                    with RadioSet(id="length", compact=True):
                        yield RadioButton("Quick game (4 hands)", value=self.config.quick,
                                          id="quick", compact=True)
                        yield RadioButton("Full match", value=not self.config.quick,
                                          id="full", compact=True)
                with Horizontal():
                    yield Label("Opponents")
                    for i, name in enumerate(self.config.opponents):
                        value = name if name in names else names[0]
                        yield Select([(n.title(), n) for n in names], value=value,
                                     allow_blank=False, id=f"opp-{i}", compact=True)
                with Horizontal():
                    yield Label("")
                    yield Checkbox("Hints", value=self.config.hints, id="hints", compact=True)
                    yield Button("Start my game (G)", id="start", variant="success",
                                 compact=True)
            yield Static(Text.from_markup(GUIDE), id="guide")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(f"#table-{TABLES[0].id}", Button).focus()

    def chosen(self) -> PlayConfig:
        """The custom game as the widgets now say."""
        c = self.config
        rules = str(self.query_one("#rules", Select).value)
        quick = self.query_one("#quick", RadioButton).value
        hints = self.query_one("#hints", Checkbox).value
        opp = tuple(str(self.query_one(f"#opp-{i}", Select).value) for i in range(3))
        # the options from the command line that the screen does not show carry over
        return dataclasses.replace(c, rules=rules, quick=quick, opponents=opp, hints=hints,
                                   table=None)

    def show_busy(self) -> None:
        """Say why nothing happens yet: the tables are still being built (first run)."""
        busy = self.query_one("#busy", Static)
        busy.update("Getting the tiles ready: the first game on this computer takes a "
                    "few seconds…")
        self.query_one("#setup").add_class("busy")

    def action_start(self) -> None:
        self.play_app.start_game(self.chosen())

    def action_table(self, index: int) -> None:
        t = TABLES[index]
        base = self.chosen()
        base.quick = True
        base.opponents = t.opponents
        base.table = t.id
        self.play_app.start_game(base)

    def action_lesson(self) -> None:
        self.play_app.start_lesson()

    def action_pages(self) -> None:
        from ..errors import SgmahjongError
        from ..rules.loading import load_rules

        try:
            rules = load_rules(self.chosen().rules)
        except SgmahjongError as exc:
            self.notify(str(exc), title="Cannot read the rules", severity="error")
            return
        self.play_app.show_pages(rules, lesson=True)

    def action_help(self) -> None:
        from .dialogs import HelpScreen
        self.app.push_screen(HelpScreen())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "start":
            self.action_start()
        elif bid.startswith("table-"):
            ids = [t.id for t in TABLES]
            self.action_table(ids.index(bid.removeprefix("table-")))
