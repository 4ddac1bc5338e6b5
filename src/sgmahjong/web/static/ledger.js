// The evening's ledger: open one, enter hands ("Ann won 3 tai from Bob", a drawn hand, or a
// full hand through the calculator), follow it live from the view link, settle up.
"use strict";
(function () {
  const POLL_MS = 2000;   // viewers ask for changes this often (setTimeout: tests drive the clock)
  const REASONS = [["claimed-kong", "a claimed kong"], ["added-kong", "an added kong"],
    ["concealed-kong", "a concealed kong"], ["cat-mouse", "Cat and Mouse"],
    ["rooster-centipede", "Rooster and Centipede"], ["own-flower-season", "own Flower and Season"],
    ["four-animals", "all four Animals"], ["four-flowers", "all four Flowers"],
    ["four-seasons", "all four Seasons"]];
  const PAIRS = ["cat-mouse", "rooster-centipede", "own-flower-season"];
  // A payout is added or removed in the form alone (nothing is sent until the hand is
  // saved), so no request can keep its button busy. A tap on "Add this payout" this soon
  // after the last one, for the same payout, is the same tap again (a double or triple
  // tap), not a second payout.
  const SAME_TAP_MS = 500;
  const $ = (id) => document.getElementById(id);
  const { el } = window.sgmjDom;
  const R = window.sgmjRequest;
  // editing: the id of the hand being changed (null: a new hand); undo: the last deletion
  const L = { token: null, data: null, revision: null, editing: null, editingNumber: null,
    entry: null, timer: null, save: R.change(), undo: null };

  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  async function answer(r) {
    let data = {};
    try { data = await r.json(); } catch (exc) { /* an empty answer */ }
    if (!r.ok) {
      const err = new Error(data.message || `the server answered ${r.status}`);
      err.code = data.error;
      throw err;
    }
    return data;
  }
  const call = async (method, url) => answer(await R.send(method, url));
  // a change: carried out once, however often the network delivers it (request.js)
  const changeBy = async (change, method, url, body) => answer(await change.send(method, url, { body }));

  // ---- opening a ledger
  async function openPage() {
    $("open").hidden = false;
    // the form never goes to the server by itself, even when tapped before it is ready
    // (the page's HTML keeps the button disabled until then)
    $("open-form").addEventListener("submit", (e) => e.preventDefault());
    const opts = await call("GET", "/api/score/options");
    $("open-rules").replaceChildren(...Object.keys(opts.presets).map((p) => el("option", { value: p, selected: p === "standard" }, p)),
      el("option", { value: "house" }, "House rules (upload a file)"));
    $("open-rules").addEventListener("change", () => { $("open-house-label").hidden = $("open-rules").value !== "house"; });
    const opening = R.change();
    $("open-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const f = e.target;
      R.busy($("open-form").querySelector('[type="submit"]'), async () => {
        const body = { names: [f.n0.value, f.n1.value, f.n2.value, f.n3.value], stake: $("open-stake").value.trim() || null };
        try {
          if ($("open-rules").value === "house") {
            const file = $("open-house").files[0];
            if (!file) throw new Error("choose the house-rule file");
            body.house_rules = await file.text();
          } else body.rules = $("open-rules").value;
          const made = await changeBy(opening, "POST", "/api/ledgers", body);
          location.href = `/ledger/${made.edit}`;
          await new Promise(() => {});   // busy until the ledger's page replaces this one
        } catch (exc) {
          $("open-error").textContent = exc.message;
          $("open-error").hidden = false;
        }
      });
    });
    $("open-submit").disabled = false;
  }

  // ---- the ledger
  function blankEntry() {
    return { type: "win", winner: null, from: null, tai: "", thirteen: false, liable: null, kong: false, instant: [] };
  }
  function seg(id, items, current, pick) {
    $(id).replaceChildren(...items.map(([value, label, off]) => el("button", {
      type: "button", class: value === current ? "on" : "", "aria-pressed": String(value === current),
      "data-value": String(value), disabled: !!off, onclick: () => pick(value) }, label)));
  }
  function drawEntry() {
    const d = L.data, E = L.entry, names = d.names;
    $("entry").hidden = !d.can_edit;
    if (!d.can_edit) return;
    $("entry-title").textContent = L.editing === null ? `Add hand ${d.next.number}` : `Change hand ${L.editingNumber}`;
    seg("entry-type", [["win", "A win"], ["drawn", "Drawn hand"]], E.type, (v) => { E.type = v; drawEntry(); });
    $("win-fields").hidden = E.type !== "win";
    $("kong-row").hidden = E.type !== "drawn";
    seg("entry-winner", names.map((n, i) => [i, n]), E.winner, (v) => { E.winner = v; if (E.from === v) E.from = null; if (E.liable === v) E.liable = null; drawEntry(); });
    seg("entry-from", [[null, "Self-drawn"], ...names.map((n, i) => [i, n, i === E.winner])], E.from, (v) => { E.from = v; drawEntry(); });
    $("liable-row").hidden = !d.has_bao;
    seg("entry-liable", [[null, "nobody"], ...names.map((n, i) => [i, n, i === E.winner])], E.liable, (v) => { E.liable = v; drawEntry(); });
    $("tai-label").hidden = !d.counts_tai;
    if (document.activeElement !== $("entry-tai")) $("entry-tai").value = E.tai;
    $("entry-13").checked = E.thirteen;
    // Thirteen Wonders is worth what the rules say: the box fills the tai in (entry-13's change)
    const tw = d.thirteen_wonders_tai;
    $("entry-13-note").hidden = !(E.thirteen && tw !== null && tw !== undefined);
    $("entry-13-note").textContent = `Thirteen Wonders is ${tw} tai under ${d.rules}; more only with bonus tiles or the like.`;
    $("entry-kong").checked = E.kong;
    $("instant-box").hidden = !d.has_instant;
    // A removed payout keeps its row, struck out, with a disabled button where "remove" was,
    // until the next payout is added or the form is emptied: the rows below do not move up
    // under a finger that taps again, and a second tap takes nothing. Rows go by their own
    // id, never by their place.
    const said = (p) => `${names[p.player]}: ${Object.fromEntries(REASONS)[p.reason]}${p.dealt ? " (in the deal)" : ""}`;
    $("instant-list").replaceChildren(...E.instant.map((p) => (p.removed
      ? el("li", { class: "removed", "data-testid": "instant-removed" }, el("s", {}, said(p)), " ",
        el("button", { type: "button", disabled: true }, "removed"))
      : el("li", { "data-testid": "instant-item", "data-id": p.id }, `${said(p)} `,
        el("button", { type: "button", onclick: () => removePayout(p.id) }, "remove")))));
    $("entry-save").textContent = L.editing === null ? "Add hand" : "Save changes";
    // nothing to save until a winner is chosen: a tap that comes just after a hand was
    // saved (and the form emptied) saves nothing and says nothing
    const incomplete = E.type === "win" && E.winner === null;
    if ($("entry-save").dataset.busy !== "1") $("entry-save").disabled = incomplete;
    $("entry-save").title = incomplete ? "Choose the winner first" : "";
    $("entry-cancel").hidden = L.editing === null;
    $("full-hand").href = `/score?ledger=${encodeURIComponent(L.token)}`;
    $("full-hand").hidden = L.editing !== null;
  }
  function entryBody() {
    const E = L.entry;
    const out = { type: E.type };
    if (E.type === "win") {
      if (E.winner === null) throw new Error("choose the winner");
      out.winner = E.winner;
      out.from = E.from;
      if (L.data.counts_tai) {
        if (E.thirteen && E.tai === "") { /* the ledger takes the rules' tai for it */ }
        else if (E.tai === "" || !Number.isInteger(Number(E.tai))) throw new Error("give the tai (a whole number)");
        else out.tai = Number(E.tai);
      } else out.tai = 0;
      if (E.thirteen) out.thirteen_wonders = true;
      if (E.liable !== null) out.liable = E.liable;
    } else if (E.kong) out.kong = true;
    const kept = E.instant.filter((p) => !p.removed);
    if (kept.length) out.instant = kept.map((p) => Object.assign({ player: p.player, reason: p.reason }, p.dealt ? { dealt: true } : {}));
    return out;
  }
  function entryFrom(h) {
    const e = h.entry, E = blankEntry();
    E.type = e.type;
    E.winner = e.winner === undefined ? null : e.winner;
    E.from = e.from === undefined ? null : e.from;
    // a full hand is changed here by its tai (as scored) and its Bao (as found)
    E.tai = e.tai !== undefined ? String(e.tai) : (h.raw_tai !== null && h.raw_tai !== undefined ? String(h.raw_tai) : "");
    E.thirteen = !!e.thirteen_wonders;
    E.liable = h.liable === undefined ? null : h.liable;
    E.kong = !!e.kong;
    E.instant = (e.instant || []).map((p) => payout(p));
    return E;
  }
  // a payout of the form, with an id of its own in this page (not sent)
  let payoutIds = 0;
  function payout(p) {
    return { id: ++payoutIds, player: p.player, reason: p.reason, dealt: !!p.dealt, removed: false };
  }
  // when "Add this payout" was last tapped, and for which payout
  let lastAdd = { at: -Infinity, what: null };
  function removePayout(id) {
    // a tap this soon after Add is that tap's second half, landing on the new row's
    // "remove" that the added row moved under the finger
    if (performance.now() - lastAdd.at < SAME_TAP_MS) return;
    const p = L.entry.instant.find((x) => x.id === id && !x.removed);
    if (!p) return;    // already removed: a repeated tap
    p.removed = true;
    drawEntry();
  }
  function problem(exc) {
    $("entry-error").textContent = exc.message;
    $("entry-error").hidden = false;
  }
  const handsUrl = () => `/api/ledgers/${encodeURIComponent(L.token)}/hands`;
  async function save() {
    await R.busy($("entry-save"), async () => {
      $("entry-error").hidden = true;
      try {
        const body = entryBody();
        const data = L.editing === null ? await changeBy(L.save, "POST", handsUrl(), body)
          : await changeBy(L.save, "PUT", `${handsUrl()}/${encodeURIComponent(L.editing)}`, body);
        L.editing = null;
        L.entry = blankEntry();
        L.undo = null;
        show(data);
      } catch (exc) {
        if (exc.code === "idempotency-key-reused") {
          // the first try of this change was carried out, though its answer was lost
          await refresh();
          exc.message = "Your earlier change was saved: the ledger below shows it. Check the hand, and change it if need be.";
          L.editing = null;
          L.entry = blankEntry();
          drawEntry();
        }
        problem(exc);
      }
    });
    drawEntry();
  }
  // Deleting a hand by its id (never by its place: a repeated delete must not take the
  // hand that moved up); the last deletion can be undone.
  function remove(h, button) {
    return R.busy(button, async () => {
      try {
        show(await changeBy(R.change(), "DELETE", `${handsUrl()}/${encodeURIComponent(h.id)}`));
        L.undo = { id: h.id, number: h.number, text: h.text };
        drawUndo();
      } catch (exc) { problem(exc); }
    });
  }
  function undo(button) {
    const gone = L.undo;
    if (!gone) return undefined;
    return R.busy(button, async () => {
      try {
        show(await changeBy(R.change(), "POST", `${handsUrl()}/${encodeURIComponent(gone.id)}/restore`));
        L.undo = null;
        drawUndo();
      } catch (exc) { problem(exc); }
    });
  }
  // The deleted hand keeps its row, struck out, with Undo where Edit was: the rows below do
  // not move up under a finger that taps Delete again, and nothing is where Delete was.
  function placeDeleted() {
    const u = L.undo;
    if (!u || !L.data.can_edit) return;
    const row = el("tr", { class: "deleted", "data-testid": "hand-deleted" },
      el("td", { class: "what", colspan: String(1 + L.data.names.length) },
        el("div", { "data-testid": "deleted-text" }, `Hand ${u.number} deleted: ${u.text}`)),
      el("td", { class: "act" }, el("div", { class: "actions" },
        el("button", { type: "button", "data-testid": "undo-button", onclick: (ev) => undo(ev.currentTarget) }, "Undo"))));
    // newest first: the hand sat below the hands numbered after it
    const later = [...$("hands").querySelectorAll('[data-testid="hand-row"]')]
      .filter((r) => Number(r.dataset.number) > u.number - 1);
    if (later.length) later[later.length - 1].after(row); else $("hands").prepend(row);
  }
  function drawUndo() {
    $("hands").querySelectorAll('[data-testid="hand-deleted"]').forEach((r) => r.remove());
    placeDeleted();
  }
  async function refresh() {
    try { show(await call("GET", `/api/ledgers/${encodeURIComponent(L.token)}`)); } catch (exc) { /* the poll tries again */ }
  }

  function show(d) {
    L.data = d;
    L.revision = d.revision;
    const names = d.names;
    $("book").hidden = false;
    $("title").textContent = `${names.join(", ")} · ${d.rules}${d.stake ? ` · ${d.stake} a point` : ""}`;
    $("next").textContent = `Next: hand ${d.next.number}, ${d.next.dealer_name} deals, ${d.next.round_wind} round` +
      (d.next.match_over ? " (the full match of four rounds is over)" : "");
    $("mode").textContent = d.can_edit ? "You can change this ledger." : "You are watching: it follows the scorekeeper's changes.";
    $("standings").replaceChildren(...d.standings.map((s) => el("tr", { "data-testid": "standing", "data-player": String(s.player) },
      el("td", {}, String(s.place)), el("td", { class: "name" }, s.name), el("td", { "data-testid": "standing-points" }, signed(s.points)),
      d.money ? el("td", {}, d.money[s.player]) : null)));
    $("hands").closest("table").classList.toggle("can-edit", !!d.can_edit);
    $("hands-head").replaceChildren(el("tr", {}, el("th", { class: "what" }, "Hand"), ...names.map((n) => el("th", { class: "name" }, n)), d.can_edit ? el("th", { class: "act" }, "") : null));
    // each row: the hand in words and why each paid (its lines), each player's points and,
    // under them, the running total
    $("hands").replaceChildren(...d.hands.slice().reverse().map((h) => el("tr", { "data-testid": "hand-row", "data-number": String(h.number) },
      el("td", { class: "what" }, el("div", { class: "head" }, el("span", { class: "num" }, `${h.number}.`), el("span", { "data-testid": "hand-text" }, h.text)),
        el("div", { class: "small", "data-testid": "hand-deal" }, `${names[h.dealer]} dealt · ${h.round_wind} round`),
        h.lines.length ? el("ul", { class: "lines" }, h.lines.map((t) => el("li", { "data-testid": "hand-line" }, t))) : null),
      ...h.deltas.map((x, p) => el("td", { class: "delta" }, el("div", { "data-testid": `hand-delta-${p}` }, signed(x)),
        el("div", { class: "total", "data-testid": `hand-total-${p}`, title: `${names[p]}'s total after hand ${h.number}` }, `= ${signed(h.totals[p])}`))),
      d.can_edit ? el("td", { class: "act" }, el("div", { class: "actions" },
        el("button", { type: "button", "data-testid": "hand-edit", onclick: () => { L.editing = h.id; L.editingNumber = h.number; L.entry = entryFrom(h); drawEntry(); $("entry").scrollIntoView(); } }, "Edit"),
        el("button", { type: "button", class: "danger", "data-testid": "hand-delete", "aria-label": `Delete hand ${h.number}`, onclick: (ev) => remove(h, ev.currentTarget) }, "Delete"))) : null)));
    placeDeleted();
    $("settle").replaceChildren(...(d.settle.length ? d.settle.map((t) => el("li", { "data-testid": "transfer" }, t.text + (t.money ? ` (${t.money})` : "")))
      : [el("li", {}, d.pays ? "Nobody owes anybody." : "Nobody pays at this table: the points are each player's score.")]));
    $("export-csv").href = `/api/ledgers/${encodeURIComponent(L.token)}/export.csv`;
    $("export-json").href = `/api/ledgers/${encodeURIComponent(L.token)}/export.json`;
    $("view-link").value = d.view_url;
    $("edit-link-label").hidden = !d.can_edit;
    if (d.can_edit) $("edit-link").value = `${location.origin}/ledger/${L.token}`;
    drawEntry();
  }

  async function poll() {
    L.timer = null;
    try {
      const d = await call("GET", `/api/ledgers/${encodeURIComponent(L.token)}?since=${L.revision}`);
      if (!d.unchanged) show(d);
    } catch (exc) { /* offline a moment: try again at the next tick */ }
    L.timer = setTimeout(poll, POLL_MS);
  }

  async function ledgerPage(token) {
    L.token = token;
    L.entry = blankEntry();
    try { show(await call("GET", `/api/ledgers/${encodeURIComponent(token)}`)); } catch (exc) {
      $("load-error").textContent = exc.message;
      $("load-error").hidden = false;
      return;
    }
    $("entry-tai").addEventListener("input", (e) => { L.entry.tai = e.target.value; });
    $("entry-13").addEventListener("change", (e) => {
      L.entry.thirteen = e.target.checked;
      const tw = L.data.thirteen_wonders_tai;
      if (e.target.checked && tw !== null && tw !== undefined) L.entry.tai = String(tw);
      drawEntry();
    });
    $("entry-kong").addEventListener("change", (e) => { L.entry.kong = e.target.checked; });
    $("entry-save").addEventListener("click", save);
    $("entry-cancel").addEventListener("click", () => { L.editing = null; L.entry = blankEntry(); drawEntry(); });
    $("instant-player").replaceChildren(...L.data.names.map((n, i) => el("option", { value: String(i) }, n)));
    // only the payouts these rules pay (standard: a concealed kong pays nothing)
    const paid = L.data.instant_reasons || REASONS.map(([v]) => v);
    $("instant-reason").replaceChildren(...REASONS.filter(([v]) => paid.includes(v)).map(([v, t]) => el("option", { value: v }, t)));
    $("instant-add").addEventListener("click", () => {
      const reason = $("instant-reason").value;
      const p = payout({ player: Number($("instant-player").value), reason, dealt: PAIRS.includes(reason) && $("instant-dealt").checked });
      // the same payout again this soon is the same tap again; each tap of a quick run
      // restarts the wait, so three taps 200 ms apart are one; another payout is never held
      const what = `${p.player} ${p.reason} ${p.dealt}`, now = performance.now();
      const repeat = what === lastAdd.what && now - lastAdd.at < SAME_TAP_MS;
      lastAdd = { at: now, what };
      if (repeat) return;
      L.entry.instant = L.entry.instant.filter((x) => !x.removed);
      L.entry.instant.push(p);
      drawEntry();
    });
    L.timer = setTimeout(poll, POLL_MS);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const m = location.pathname.match(/^\/ledger\/([^/]+)$/);
    if (m) ledgerPage(decodeURIComponent(m[1])); else openPage();
  });
  window.sgmjLedger = L;
})();
