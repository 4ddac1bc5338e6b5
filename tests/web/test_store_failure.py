"""When the database refuses a write, the table goes back to what is stored: nothing is
half-done, the player is told, and play carries on once writes work again."""

from __future__ import annotations

from typing import Any

from conftest import Player, choose, create_table, start


class FlakyWrites:
    """Wraps a store's ``append_events``: after ``skip`` more calls, the next ``fail``
    calls raise."""

    def __init__(self, store: Any) -> None:
        self.real = store.append_events
        self.skip = 0
        self.fail = 0
        self.refused = 0
        store.append_events = self

    def __call__(self, *args: Any, **kw: Any) -> Any:
        if self.skip > 0:
            self.skip -= 1
        elif self.fail > 0:
            self.fail -= 1
            self.refused += 1
            raise OSError("the database is unreachable")
        return self.real(*args, **kw)


def _request(p: Player) -> dict[str, Any]:
    return p.until("request")


def _solo_table(make_client: Any) -> tuple[Any, Any, FlakyWrites, dict[str, Any], Player,
                                           dict[str, Any]]:
    """Ann against three AIs on a store whose writes can be made to fail; her first
    request."""
    c = make_client()
    store = c.app.state.store
    flaky = FlakyWrites(store)
    t = create_table(c, ai=["greedy"] * 3)
    ann = Player(c, t["table_id"], t["token"])
    start(c, t["table_id"], t["token"])
    return c, store, flaky, t, ann, _request(ann)


def test_a_move_that_cannot_be_stored_is_refused_and_the_table_is_unchanged(
        make_client) -> None:
    c, store, flaky, t, ann, req = _solo_table(make_client)
    stored_before = len(store.load_events(t["table_id"]))

    flaky.fail = 1
    action = choose(req["legal"], req["view"])
    mark = len(ann.log)
    ann.send({"type": "action", "id": req["id"], "action": action})
    err = ann.until("error")
    assert err["code"] == "unsaved"
    # asked again, from the stored state (the new request may come before the error)
    asked = [m for m in ann.log[mark:] if m["type"] == "request"]
    again = asked[-1] if asked else _request(ann)
    assert again["id"] != req["id"]
    assert again["legal"] == req["legal"] and again["view"] == req["view"]
    assert len(store.load_events(t["table_id"])) == stored_before
    rt = c.app.state.lobby.tables[t["table_id"]]
    assert rt.n == stored_before

    # the same move, now that the database answers, is taken and play goes on
    ann.send({"type": "action", "id": again["id"], "action": action})
    ann.until("ack")
    ev = ann.until("event")
    assert ev["n"] == stored_before + 1
    assert ev["event"]["type"] in ("discarded", "won", "kong-declared", "bonus-exposed")
    assert flaky.refused == 1


def test_the_ai_driver_retries_after_a_failed_write(make_client) -> None:
    c, store, flaky, t, ann, req = _solo_table(make_client)
    flaky.skip, flaky.fail = 1, 2    # Ann's move is stored; the AI's next two writes fail
    ann.send({"type": "action", "id": req["id"], "action": choose(req["legal"], req["view"])})
    # whatever failed, the table reaches Ann again, with every event stored in order
    nxt = ann.until("request", timeout=20)
    assert nxt["id"] != req["id"]
    stored = store.load_events(t["table_id"])
    assert len(stored) == c.app.state.lobby.tables[t["table_id"]].n
    numbers = [m["n"] for m in ann.log if m["type"] == "event"]
    assert numbers == sorted(set(numbers))
    assert flaky.refused == 2


def test_when_the_log_cannot_be_read_back_either_nothing_is_played_until_it_can(
        make_client) -> None:
    c, store, flaky, t, ann, req = _solo_table(make_client)
    tid = t["table_id"]
    stored_before = len(store.load_events(tid))
    real_load = store.load_events
    reads = {"fail": 1}

    def load(table_id: str) -> Any:
        if reads["fail"]:
            reads["fail"] -= 1
            raise OSError("the database is unreachable")
        return real_load(table_id)

    store.load_events = load
    flaky.fail = 1
    action = choose(req["legal"], req["view"])
    ann.send({"type": "action", "id": req["id"], "action": action})
    assert ann.until("error")["code"] == "unsaved"
    rt = c.app.state.lobby.tables[tid]
    # the table is rebuilt from the log as soon as it can be read: the move never happened
    again = ann.until("request", timeout=20)
    assert not rt.stale
    assert again["view"] == req["view"] and again["legal"] == req["legal"]
    assert len(real_load(tid)) == stored_before == rt.n
    ann.send({"type": "action", "id": again["id"], "action": action})
    assert ann.until("event")["n"] == stored_before + 1
