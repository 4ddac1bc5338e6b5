"""A person at the web table, in a browser page: reads ``window.sgmj`` and answers each
request with the keyboard or with clicks, as seed 002's controls describe."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

PENDING_JS = """() => {
  const S = window.sgmj;
  if (!S || !S.request || !S.view) return null;
  return {id: S.request.id, legal: S.request.legal, drawn: S.view.last_drawn,
          cursor: S.cursor};
}"""


class Person:
    """Plays a simple game: win when it can, throw the drawn tile, skip every claim."""

    def __init__(self, page: Any, style: str) -> None:
        assert style in ("keys", "clicks")
        self.page = page
        self.style = style
        self.moves = 0

    def hand_over(self) -> bool:
        return bool(self.page.locator('[data-testid="hand-end"]').is_visible())

    def pending(self) -> dict[str, Any] | None:
        return self.page.evaluate(PENDING_JS)  # type: ignore[no-any-return]

    def answer(self) -> bool:
        """Answer the open request, if there is one; True when something was done."""
        req = self.pending()
        if req is None:
            return False
        legal: list[dict[str, Any]] = req["legal"]
        kinds = {a["type"] for a in legal}
        if "win" in kinds:
            self._press("w", "action-win")
        elif "discard" in kinds:
            self._throw(req, legal)
        elif "pass" in kinds:
            self._press("s", "action-pass")
        else:
            raise AssertionError(f"a request this person cannot answer: {legal}")
        self.moves += 1
        try:
            self.page.wait_for_function(
                "(id) => !window.sgmj.request || window.sgmj.request.id !== id",
                arg=req["id"], timeout=10_000)
        except Exception as exc:
            state = self.page.evaluate(
                "() => ({status: document.getElementById('status').textContent,"
                " focus: document.activeElement && document.activeElement.outerHTML,"
                " request: window.sgmj.request, picked: window.sgmj.picked,"
                " cursor: window.sgmj.cursor})")
            raise AssertionError(f"{self.style}: the answer to {legal} was not taken: "
                                 f"{state}") from exc
        return True

    def _press(self, key: str, testid: str) -> None:
        if self.style == "keys":
            self.page.keyboard.press(key.upper() if key.isalpha() else key)
        else:
            self.page.get_by_test_id(testid).click()

    def _throw(self, req: dict[str, Any], legal: Sequence[dict[str, Any]]) -> None:
        tiles = self.page.eval_on_selector_all(
            '[data-testid="hand-tile"]', "els => els.map(e => e.dataset.tile)")
        throwable = [a["tile"] for a in legal if a["type"] == "discard"]
        drawn = req["drawn"]
        # the page shows the tile just drawn apart, at the right end
        choice = drawn if drawn in throwable else throwable[0]
        target = len(tiles) - 1 - tiles[::-1].index(choice)
        if self.style == "keys":
            steps = (target - int(req["cursor"])) % len(tiles)
            for _ in range(steps):
                self.page.keyboard.press("ArrowRight")
            self.page.keyboard.press("Enter")    # pick
            self.page.keyboard.press("Enter")    # and throw
        else:
            tile = self.page.locator(f'[data-testid="hand-tile"][data-index="{target}"]')
            tile.click()                           # pick
            self.page.locator(f'[data-testid="hand-tile"][data-index="{target}"]').click()


def play_until_hand_end(people: Sequence[Person], timeout: float = 120.0,
                        stop_after: int | None = None) -> None:
    """Answer every request until each page shows the end of the hand (or, with
    ``stop_after``, until that many moves have been made in all)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(p.hand_over() for p in people):
            return
        if stop_after is not None and sum(p.moves for p in people) >= stop_after:
            return
        if not any(p.answer() for p in people):
            time.sleep(0.05)
    raise AssertionError("the hand did not end in time")
