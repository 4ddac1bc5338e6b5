"""The learning pages in the terminal: how to play, the rules used here, the tai table, the
tile guide, tips and the garden animals (:mod:`sgmahjong.render.pages` drawn with Rich).

Opened with R from the setup screen or the table; the table waits underneath, so reading
a page never loses the game. The pages show the rules and the tiles, nothing of any hand.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..render.labels import script
from ..render.pages import (
    Block,
    Bullets,
    Heading,
    Page,
    Para,
    Table,
    TileCards,
    TileRow,
    pages,
    without_chinese,
)
from ..render.text import boxes_row, markup, tile_box
from ..rules.model import Ruleset
from ..tiles import parse_tiles


def render_block(block: Block) -> RenderableType:
    """One block of a page as a Rich renderable (with tiles in letters, no Chinese names:
    the terminal has no font for them)."""
    latin = script() == "latin"
    if latin:
        block = without_chinese(block)
    if isinstance(block, Heading):
        style = "bold underline" if block.level <= 2 else "bold"
        return Text(("\n" if block.level <= 2 else "") + block.text, style=style)
    if isinstance(block, Para):
        return Text(block.text)
    if isinstance(block, Bullets):
        return Text("\n".join(f"• {item}" for item in block.items))
    if isinstance(block, Table):
        t = RichTable(*block.headers, title=block.caption or None, title_justify="left",
                      show_lines=False, header_style="bold", expand=False)
        for row in block.rows:
            t.add_row(*(Text(cell) for cell in row))
        return t
    if isinstance(block, TileRow):
        boxes: list[list[str]] = []
        for i, group in enumerate(block.groups):
            if i:
                boxes.append([])
            boxes.extend(tile_box(t, styled=True) for t in parse_tiles("".join(group)))
        tiles = Text.from_markup("\n".join(boxes_row(boxes)))
        tiles.no_wrap = True   # a box broken over two lines would be no tile at all
        tiles.overflow = "crop"
        return Group(tiles, Text(block.caption, style="dim"))
    if isinstance(block, TileCards):
        heads = ("Tile", "Name", "Notation") if latin else ("Tile", "Name", "Chinese", "Notation")
        t = RichTable(*heads, box=None, padding=(0, 2, 0, 0), header_style="dim")
        for card in block.cards:
            tile = parse_tiles(card.tile)[0]
            t.add_row(Text.from_markup(markup(tile, on_tile=True)),
                      *(escape(line) for line in card.lines))
        return t
    raise TypeError(f"no drawing for {type(block).__name__}")


def render_page(page: Page) -> Group:
    return Group(Text(page.title, style="bold reverse"), *(render_block(b) for b in page.blocks))


class PagesScreen(Screen[None]):
    """The pages for a rule set; 1-5 (or ← →) turn the page, Esc or R goes back."""

    CSS = """
    PagesScreen { layout: vertical; }
    #tabs { height: auto; background: $panel; padding: 0 1; }
    #page-body { height: 1fr; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("r", "close", "Back", show=False),
        Binding("left", "turn(-1)", "Page ←"),
        Binding("right", "turn(1)", "Page →"),
        *(Binding(str(i + 1), f"show({i})", str(i + 1), show=False) for i in range(5)),
        Binding("l", "lesson", "Guided first hand"),
    ]

    def __init__(self, rules: Ruleset, *, start: str = "how-to-play",
                 lesson: bool = False) -> None:
        super().__init__()
        self.rules = rules
        self.pages = pages(rules)
        ids = [p.id for p in self.pages]
        self.index = ids.index(start) if start in ids else 0
        self.lesson = lesson

    def compose(self) -> ComposeResult:
        yield Static(id="tabs")
        with VerticalScroll(id="page-body"):
            yield Static(id="page")
        yield Footer()

    def on_mount(self) -> None:
        self.show_page()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the lesson starts from the setup screen's pages only: during a game it would
        # take the player away from their table
        if action == "lesson":
            return self.lesson
        return True

    def show_page(self) -> None:
        tabs = Text()
        for i, p in enumerate(self.pages):
            if i:
                tabs.append(" · ", style="dim")
            tabs.append(f"{i + 1} {p.title}", style="bold reverse" if i == self.index else "")
        tabs.append(f"   ({self.rules.name} rules)", style="dim")
        self.query_one("#tabs", Static).update(tabs)
        self.query_one("#page", Static).update(render_page(self.pages[self.index]))
        self.query_one("#page-body", VerticalScroll).scroll_home(animate=False)

    @property
    def page_id(self) -> str:
        return self.pages[self.index].id

    def action_show(self, index: int) -> None:
        if index < len(self.pages):
            self.index = index
            self.show_page()

    def action_turn(self, step: int) -> None:
        self.index = (self.index + step) % len(self.pages)
        self.show_page()

    def action_close(self) -> None:
        self.dismiss()

    def action_lesson(self) -> None:
        self.dismiss()
        self.app.start_lesson()  # type: ignore[attr-defined]
