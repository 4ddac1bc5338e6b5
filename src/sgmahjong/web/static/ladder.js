// sgmahjong web table: the practice ladder. The rungs, goals and the order to suggest them
// come from the server (/api/options, the same definitions as the terminal game); the
// server says which goals a hand or match met. There are no accounts, so the stars earned
// are kept in this browser's localStorage.
"use strict";
(() => {
  const { el, api, seatKey, status } = window.sgmjUI;
  const $ = (id) => document.getElementById(id);
  const KEY = "sgmj.ladder";
  let ladder = null;   // the server's ladder: rungs, goals, order, max_stars, all_done
  const ready = api("/api/options").then((o) => { ladder = o.ladder; return o; }).catch(() => null);

  function progress() {
    try {
      const p = JSON.parse(localStorage.getItem(KEY) || "null");
      if (p && typeof p.stars === "object" && p.stars) return p;
    } catch (_) { /* damaged: start again */ }
    return { version: 1, stars: {} };
  }
  const has = (p, rung, goal) => Array.isArray(p.stars[rung]) && p.stars[rung].includes(goal);
  const total = (p) => Object.values(p.stars).reduce((n, g) => n + (Array.isArray(g) ? g.length : 0), 0);
  const goalText = (id) => ((ladder && ladder.goals.find((g) => g.id === id)) || { text: id }).text;

  // Record the goals a hand or match met; returns a note of the new stars (or null).
  function award(msg) {
    const p = progress();
    const fresh = (msg.earned || []).filter((g) => !has(p, msg.rung, g));
    if (!fresh.length) return null;
    p.stars[msg.rung] = [...(p.stars[msg.rung] || []), ...fresh];
    try { localStorage.setItem(KEY, JSON.stringify(p)); } catch (_) { /* private mode */ }
    return el("p", { class: "new-stars", "data-testid": "ladder-stars" },
      `★ New star${fresh.length > 1 ? "s" : ""}: ${fresh.map(goalText).join(", ")}`);
  }
  window.sgmjLadder = { award, progress };

  function nextGoal(p) {
    const o = ladder.order.find((x) => !has(p, x.rung, x.goal));
    return o ? o.text : ladder.all_done;
  }
  const earned = (p, rung) => ladder.goals.filter((g) => has(p, rung, g.id)).length;
  function stars(p, rung) { return ladder.goals.map((g) => (has(p, rung, g.id) ? "★" : "☆")).join(""); }

  // A rung's table is made and started once however often it is tapped, as the lobby's
  // Create table (request.js): the tapped button is busy until the table's page replaces
  // this one, and the creation and the start each keep one Idempotency-Key through every
  // retry; a table made but not started (its start refused or lost) is started on the next
  // tap, not made again. While one rung is on its way the others take no tap either.
  const R = window.sgmjRequest;
  let going = false;
  function intent() {
    return { creating: R.change(), starting: R.change(), made: null };
  }
  function play(rung, button, tap) {
    if (going) return undefined;
    return R.busy(button, async () => {
      going = true;
      const body = {
        // the ladder is tai practice: casual scoring would make the 3+ tai star unreachable
        name: $("create-name").value || "You",
        rules: ["", "casual"].includes($("create-rules").value) ? "standard" : $("create-rules").value,
        hints: $("create-hints").checked, quick: true, ladder: rung.id,
      };
      try {
        if (!tap.made) {
          tap.made = await api("/api/tables", body, null, tap.creating);
          localStorage.setItem(seatKey(tap.made.table_id), JSON.stringify({ token: tap.made.token, player: 0 }));
        }
        const t = tap.made;
        await api(`/api/tables/${t.table_id}/start`, {}, t.token, tap.starting);   // solo: start at once
        location.href = `/t/${t.table_id}`;
        await new Promise(() => {});   // busy until the table's page replaces this one
      } catch (e) { status(e.message); } finally { going = false; }
    });
  }

  async function lobby() {
    if (location.pathname !== "/" || !$("ladder")) return;
    await ready;
    if (!ladder) { $("ladder").hidden = true; return; }
    const p = progress();
    $("ladder-summary").textContent =
      `Your tables ★ ${total(p)}/${ladder.max_stars} · Next goal: ${nextGoal(p)}`;
    $("ladder-rungs").replaceChildren(...ladder.rungs.map((r, i) => { const tap = intent(); return el("div", { class: "rung", "data-testid": `rung-${r.id}` },
      el("button", { type: "button", class: i === 0 ? "primary" : "", "data-testid": "ladder-rung", "data-rung": r.id, onclick: (ev) => play(r, ev.currentTarget, tap) },
        `${i + 1}. ${r.name}`),
      el("span", { class: "stars", "aria-label": `${earned(p, r.id)} of ${ladder.goals.length} stars`, "data-testid": `ladder-stars-${r.id}` }, stars(p, r.id)),
      el("div", { class: "small" }, `${r.opponents.map((o) => o[0].toUpperCase() + o.slice(1)).join(", ")} · ${r.blurb}`),
      el("ul", { class: "goals" }, ladder.goals.map((g) => el("li", { class: has(p, r.id, g.id) ? "done" : "" },
        `${has(p, r.id, g.id) ? "★" : "☆"} ${g.text}`)))); }));
  }
  lobby();
})();
