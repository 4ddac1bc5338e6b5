"""Table widgets: a clickable tile in a coloured box, and the text of a seat's public tiles."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from ..english import tile_name
from ..game import Phase, PlayerView, SeatView
from ..render.labels import face
from ..render.text import markup, tile_box
from ..tiles import Seat, Tile

WIND_NAMES = {Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West", Seat.NORTH: "North"}


def name_markup(tile: Tile) -> str:
    """The tile's name in its colour, for sentences (tile lists use the short labels)."""
    return f"[{face(tile).style}]{tile_name(tile)}[/]"


def tile_text(tile: Tile) -> Text:
    """A tile as its 4x4 coloured box (render.text.tile_box)."""
    return Text.from_markup("\n".join(tile_box(tile, styled=True)))


class TileWidget(Static):
    """One tile of the player's hand; a click picks it (a second click throws it)."""

    DEFAULT_CSS = """
    TileWidget {
        width: 4;
        height: 4;
        margin: 1 0 0 0;
    }
    TileWidget.apart { margin: 1 0 0 2; }
    TileWidget.cursor { background: $accent 40%; }
    TileWidget.selected { margin: 0 0 1 0; background: $warning 50%; }
    TileWidget.selected.apart { margin: 0 0 1 2; }
    TileWidget.suggested { background: $success 25%; }
    """

    class Clicked(Message):
        """A tile of the hand was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.index = index
        self.tile: Tile | None = None

    def show(self, tile: Tile | None) -> None:
        if tile != self.tile:
            self.tile = tile
            self.update(tile_text(tile) if tile is not None else "")
        self.display = tile is not None

    def on_click(self, event: Click) -> None:
        event.stop()
        if self.tile is not None:
            self.post_message(self.Clicked(self.index))


def tiles_markup(tiles: Sequence[Tile], highlight_last: bool = False) -> str:
    """Short coloured labels; the last one reversed when it is the latest discard."""
    parts = [markup(t) for t in tiles]
    if highlight_last and parts:
        f = face(tiles[-1])
        parts[-1] = f"[reverse {f.term_colour or ''}] {f.short} [/]".replace("reverse  ",
                                                                              "reverse ")
    return " ".join(parts)


def sets_markup(sv: SeatView) -> str:
    out = []
    for m in sv.melds:
        meld = m.meld
        tiles = " ".join(markup(t) for t in meld.tiles)
        kind = meld.kind.value.replace("-", " ")
        out.append(f"{kind} {tiles}")
    return " · ".join(out)


def seat_markup(v: PlayerView, seat: Seat, name: str, where: str, latest: Seat | None,
                score: int) -> str:
    """A seat's public tiles: wind, banker, score, sets, bonus tiles, discards."""
    sv = v.seats[seat]
    banker = " [b yellow]banker[/]" if seat == Seat.EAST else ""
    # once the hand is over nobody is to play (the seat on turn would be a stale marker)
    turn = " [b reverse] to play [/]" if v.turn == seat and v.phase is not Phase.ENDED else ""
    lines = [f"[b]{name}[/]{turn} · {WIND_NAMES[seat]}{banker} · {where} · {score:+d} · "
             f"[dim]{sv.concealed_count} tiles[/]"]
    sets = sets_markup(sv)
    bonus = " ".join(markup(t) for t in sv.bonus)
    if sets or bonus:
        lines.append(" ".join(x for x in (f"Sets: {sets}" if sets else "",
                                          f"Bonus: {bonus}" if bonus else "") if x))
    lines.append("Discards: " + (tiles_markup(sv.discards, latest == seat) or "[dim]none[/]"))
    return "\n".join(lines)
