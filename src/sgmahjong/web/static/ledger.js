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
  const $ = (id) => document.getElementById(id);
  const { el } = window.sgmjDom;
  const L = { token: null, data: null, revision: null, editing: null, entry: null, timer: null };

  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  async function call(method, url, body) {
    const r = await fetch(url, { method, headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body) });
    let data = {};
    try { data = await r.json(); } catch (exc) { /* an empty answer */ }
    if (!r.ok) throw new Error(data.message || `the server answered ${r.status}`);
    return data;
  }

  // ---- opening a ledger
  async function openPage() {
    $("open").hidden = false;
    const opts = await call("GET", "/api/score/options");
    $("open-rules").replaceChildren(...Object.keys(opts.presets).map((p) => el("option", { value: p, selected: p === "standard" }, p)),
      el("option", { value: "house" }, "House rules (upload a file)"));
    $("open-rules").addEventListener("change", () => { $("open-house-label").hidden = $("open-rules").value !== "house"; });
    $("open-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = e.target;
      const body = { names: [f.n0.value, f.n1.value, f.n2.value, f.n3.value], stake: $("open-stake").value.trim() || null };
      try {
        if ($("open-rules").value === "house") {
          const file = $("open-house").files[0];
          if (!file) throw new Error("choose the house-rule file");
          body.house_rules = await file.text();
        } else body.rules = $("open-rules").value;
        const made = await call("POST", "/api/ledgers", body);
        location.href = `/ledger/${made.edit}`;
      } catch (exc) {
        $("open-error").textContent = exc.message;
        $("open-error").hidden = false;
      }
    });
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
    $("entry-title").textContent = L.editing === null ? `Add hand ${d.next.number}` : `Change hand ${L.editing + 1}`;
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
    $("entry-kong").checked = E.kong;
    $("instant-box").hidden = !d.has_instant;
    $("instant-list").replaceChildren(...E.instant.map((p, i) => el("li", { "data-testid": "instant-item" },
      `${names[p.player]}: ${Object.fromEntries(REASONS)[p.reason]}${p.dealt ? " (in the deal)" : ""} `,
      el("button", { type: "button", onclick: () => { E.instant.splice(i, 1); drawEntry(); } }, "remove"))));
    $("entry-save").textContent = L.editing === null ? "Add hand" : "Save changes";
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
        if (E.tai === "" || !Number.isInteger(Number(E.tai))) throw new Error("give the tai (a whole number)");
        out.tai = Number(E.tai);
      } else out.tai = 0;
      if (E.thirteen) out.thirteen_wonders = true;
      if (E.liable !== null) out.liable = E.liable;
    } else if (E.kong) out.kong = true;
    if (E.instant.length) out.instant = E.instant.map((p) => Object.assign({ player: p.player, reason: p.reason }, p.dealt ? { dealt: true } : {}));
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
    E.instant = (e.instant || []).map((p) => Object.assign({}, p));
    return E;
  }
  async function save() {
    $("entry-error").hidden = true;
    try {
      const body = entryBody();
      const url = `/api/ledgers/${encodeURIComponent(L.token)}/hands`;
      const data = L.editing === null ? await call("POST", url, body) : await call("PUT", `${url}/${L.editing}`, body);
      L.editing = null;
      L.entry = blankEntry();
      show(data);
    } catch (exc) {
      $("entry-error").textContent = exc.message;
      $("entry-error").hidden = false;
    }
  }
  async function remove(i) {
    try { show(await call("DELETE", `/api/ledgers/${encodeURIComponent(L.token)}/hands/${i}`)); } catch (exc) {
      $("entry-error").textContent = exc.message;
      $("entry-error").hidden = false;
    }
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
    $("hands-head").replaceChildren(el("tr", {}, el("th", {}, "#"), el("th", {}, "Hand"), ...names.map((n) => el("th", {}, n)), d.can_edit ? el("th", {}, "") : null));
    $("hands").replaceChildren(...d.hands.slice().reverse().map((h) => el("tr", { "data-testid": "hand-row", "data-number": String(h.number) },
      el("td", {}, String(h.number)),
      el("td", { class: "what" }, el("div", { "data-testid": "hand-text" }, h.text), el("div", { class: "small", "data-testid": "hand-deal" }, `${names[h.dealer]} dealt · ${h.round_wind} round`)),
      ...h.deltas.map((x, p) => el("td", { "data-testid": `hand-delta-${p}` }, signed(x))),
      d.can_edit ? el("td", {}, el("div", { class: "actions" },
        el("button", { type: "button", "data-testid": "hand-edit", onclick: () => { L.editing = h.number - 1; L.entry = entryFrom(h); drawEntry(); $("entry").scrollIntoView(); } }, "Edit"),
        el("button", { type: "button", "data-testid": "hand-delete", onclick: () => remove(h.number - 1) }, "Delete"))) : null)));
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
    $("entry-13").addEventListener("change", (e) => { L.entry.thirteen = e.target.checked; });
    $("entry-kong").addEventListener("change", (e) => { L.entry.kong = e.target.checked; });
    $("entry-save").addEventListener("click", save);
    $("entry-cancel").addEventListener("click", () => { L.editing = null; L.entry = blankEntry(); drawEntry(); });
    $("instant-player").replaceChildren(...L.data.names.map((n, i) => el("option", { value: String(i) }, n)));
    $("instant-reason").replaceChildren(...REASONS.map(([v, t]) => el("option", { value: v }, t)));
    $("instant-add").addEventListener("click", () => {
      const reason = $("instant-reason").value;
      L.entry.instant.push({ player: Number($("instant-player").value), reason, dealt: PAIRS.includes(reason) && $("instant-dealt").checked });
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
