// The hand calculator: tap or type a hand, see its tai and who pays whom (POST /api/score).
// Plain JavaScript, no build step; tiles are the inlined sprite sheet (<use href="#t-1m">).
"use strict";
(function () {
  const { el, tileName, tileFace } = window.sgmjDom;
  const SEATS = ["E", "S", "W", "N"];
  const WINDS = ["East", "South", "West", "North"];
  const KINDS = [["chow", "Chow"], ["pong", "Pong"], ["kong", "Kong"], ["concealed-kong", "Concealed kong"]];
  const MODES = [["hand", "Hand"], ["set", "Set"], ["bonus", "Bonus"], ["win", "Winning tile"]];
  const EVENTS = [["last-tile", "Last tile"], ["replacement", "Replacement tile"],
    ["robbing-kong", "Robbing the kong"], ["robbing-eighth", "Robbing the eighth"],
    ["heavenly", "Heavenly hand"], ["earthly", "Earthly hand"]];
  const REASONS = { "claimed-kong": "a kong", "added-kong": "a kong", "concealed-kong": "a concealed kong",
    "cat-mouse": "Cat and Mouse", "rooster-centipede": "Rooster and Centipede",
    "own-flower-season": "own Flower and Season", "four-animals": "all four Animals",
    "four-flowers": "all four Flowers", "four-seasons": "all four Seasons" };
  const ORDINAL = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
  const PALETTE = [
    "1m 2m 3m 4m 5m 6m 7m 8m 9m", "1p 2p 3p 4p 5p 6p 7p 8p 9p", "1s 2s 3s 4s 5s 6s 7s 8s 9s",
    "1z 2z 3z 4z 5z 6z 7z", "1f 2f 3f 4f 1g 2g 3g 4g", "1a 2a 3a 4a"];

  const $ = (id) => document.getElementById(id);
  const S = {
    rules: "standard", house: null, houseName: "", names: WINDS.slice(), seat: 0, round: 0,
    discarder: null, concealed: [], melds: [], bonus: [], win: null, mode: "hand",
    kind: "pong", events: new Set(), dealt: false, liable: null, fresh: false, tilesLeft: "",
    presets: {}, ledger: null, seq: 0, last: null,
  };

  function tileButton(t, label, onclick, testid) {
    return el("button", { type: "button", class: "tile-btn", "data-tile": t, "aria-label": label,
      title: label, "data-testid": testid, onclick }, tileFace(t));
  }

  // ---- tiles: notation, order and counts (RULES.md, "Tile notation")
  const SUIT_ORDER = "mpszfga";
  const isBonus = (t) => "fga".includes(t[1]);
  const copies = (t) => (isBonus(t) ? 1 : 4);
  const order = (a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || a[0] - b[0];
  const ALIASES = { E: "1z", S: "2z", W: "3z", N: "4z", WH: "5z", G: "6z", R: "7z" };
  function readTiles(text) {
    const out = [];
    let digits = "";
    const src = text.trim();
    for (let i = 0; i < src.length; i++) {
      const ch = src[i];
      if (ch >= "1" && ch <= "9") { digits += ch; continue; }
      const low = ch.toLowerCase();
      if (digits && "mpszfga".includes(low)) {
        for (const d of digits) {
          const t = d + low;
          if ((low === "z" && d > "7") || ("fga".includes(low) && d > "4")) throw new Error(`there is no tile ${t}`);
          out.push(t);
        }
        digits = "";
        continue;
      }
      if (digits) throw new Error(`cannot read "${digits}${ch}": a tile is a number and a suit letter (m, p, s, z, f, g or a)`);
      const two = src.slice(i, i + 2).toUpperCase();
      if (two === "WH") { out.push("5z"); i++; continue; }
      if (ALIASES[ch.toUpperCase()]) { out.push(ALIASES[ch.toUpperCase()]); continue; }
      if (ch === " " || ch === ",") continue;
      throw new Error(`cannot read "${ch}" in "${text}"`);
    }
    if (digits) throw new Error(`"${digits}" needs a suit letter after it (m, p, s, z, f, g or a)`);
    return out;
  }
  const text = (tiles) => {
    let out = "", run = "";
    for (const t of tiles.slice().sort(order)) {
      if (run && run !== t[1]) out += run;
      out += t[0];
      run = t[1];
    }
    return out + run;
  };

  function meldTiles(kind, t) {
    if (kind === "chow") {
      if (!"mps".includes(t[1]) || t[0] > "7") throw new Error(`a chow is three tiles in a row of one suit: ${tileName(t)} cannot start one`);
      return [t, `${+t[0] + 1}${t[1]}`, `${+t[0] + 2}${t[1]}`];
    }
    return Array(kind === "pong" ? 3 : 4).fill(t);
  }

  // ---- the typed notation, kept in step with the taps
  function typedText() {
    const parts = [];
    if (S.concealed.length) parts.push(text(S.concealed));
    for (const m of S.melds) parts.push(`${m.kind} ${text(m.tiles)}`);
    if (S.bonus.length) parts.push(`bonus ${text(S.bonus)}`);
    if (S.win) parts.push(`win ${S.win}`);
    return parts.join(" ");
  }
  function readTyped(value) {
    const words = value.trim().split(/\s+/).filter(Boolean);
    const next = { concealed: [], melds: [], bonus: [], win: null };
    for (let i = 0; i < words.length; i++) {
      const w = words[i].toLowerCase();
      const kind = KINDS.find(([k]) => k === w);
      if (kind || w === "bonus" || w === "win") {
        const arg = words[++i];
        if (arg === undefined) throw new Error(`"${w}" needs tiles after it`);
        const tiles = readTiles(arg);
        if (w === "win") {
          if (tiles.length !== 1) throw new Error(`"win" takes one tile, not ${tiles.length}`);
          next.win = tiles[0];
        } else if (w === "bonus") {
          const bad = tiles.filter((t) => !isBonus(t));
          if (bad.length) throw new Error(`${tileName(bad[0])} is not a bonus tile`);
          next.bonus.push(...tiles);
        } else {
          const m = meldTiles(w, tiles[0]);
          if (text(m) !== text(tiles)) throw new Error(`"${w} ${arg}" is not a ${w}`);
          next.melds.push({ kind: w, tiles: m });
        }
        continue;
      }
      for (const t of readTiles(words[i])) (isBonus(t) ? next.bonus : next.concealed).push(t);
    }
    Object.assign(S, next);
  }

  // ---- what is wrong with the hand so far (null: complete enough to ask the scorer)
  function problem() {
    const all = [...S.concealed, ...S.bonus, ...S.melds.flatMap((m) => m.tiles)];
    if (S.win) all.push(S.win);
    const count = {};
    for (const t of all) {
      count[t] = (count[t] || 0) + 1;
      if (count[t] > copies(t)) return `a ${ORDINAL[count[t]] || count[t] + "th"} ${tileName(t)} (${t}): the set has only ${copies(t) === 1 ? "one" : "four"}`;
    }
    if (S.discarder !== null && S.discarder === S.seat) return "the winner cannot have discarded the winning tile: choose another seat or Self-drawn";
    const playable = S.concealed.length + 3 * S.melds.length;
    const winPlayable = S.win && !isBonus(S.win);
    const given = playable + (winPlayable ? 1 : 0);
    const each = S.melds.some((m) => m.kind.endsWith("kong")) ? " (a kong counts three)" : "";
    if (S.win && isBonus(S.win)) {
      if (playable !== 13) return `13 tiles needed beside an eighth bonus tile, ${playable} given${each}`;
      return null;
    }
    if (given !== 14) {
      const hint = !S.win && given === 13 ? ": now tap the winning tile" : "";
      return `14 tiles needed, ${given} given${each}${hint}`;
    }
    if (!S.win) return "choose the winning tile: tap Winning tile, then a tile (the hand holds 14 without it)";
    return null;
  }

  function request() {
    const req = {
      concealed: text(S.concealed), melds: S.melds.map((m) => `${m.kind} ${text(m.tiles)}`),
      bonus: text(S.bonus), win_tile: S.win, seat: SEATS[S.seat], round: SEATS[S.round],
      self_drawn: S.discarder === null, discarder: S.discarder === null ? null : SEATS[S.discarder],
      events: [...S.events],
    };
    if (hasBao()) {
      if (S.liable !== null) req.liable = SEATS[S.liable];
      if (S.fresh) req.fresh = true;
      if (S.tilesLeft !== "") req.tiles_left = Number(S.tilesLeft);
    }
    return req;
  }
  function hasBao() {
    if (S.rules === "house") return !S.last || !S.last.detail || S.last.detail.bao;
    return (S.presets[S.rules] || {}).bao;
  }

  // ---- drawing
  function seg(id, items, current, pick, disabled) {
    const box = $(id);
    box.replaceChildren(...items.map(([value, label], i) => el("button", {
      type: "button", class: value === current ? "on" : "", "aria-pressed": String(value === current),
      "data-value": String(value), disabled: disabled && disabled(value, i), onclick: () => pick(value),
    }, label)));
  }
  function draw() {
    const names = S.names;
    seg("seat", SEATS.map((s, i) => [i, names[i]]), S.seat, (v) => { S.seat = v; if (S.discarder === v) S.discarder = null; if (S.liable === v) S.liable = null; update(); });
    seg("round", SEATS.map((s, i) => [i, WINDS[i]]), S.round, (v) => { S.round = v; update(); });
    seg("how", [[null, "Self-drawn"], ...SEATS.map((s, i) => [i, names[i]])], S.discarder,
      (v) => { S.discarder = v; update(); }, (v) => v === S.seat);
    seg("modes", MODES, S.mode, (v) => { S.mode = v; draw(); });
    $("kinds").hidden = S.mode !== "set";
    seg("kinds", KINDS, S.kind, (v) => { S.kind = v; draw(); });
    const modeLabel = Object.fromEntries(MODES)[S.mode];
    $("palette").replaceChildren(...PALETTE.map((row) => el("div", { class: "prow" },
      row.split(" ").map((t) => tileButton(t, `${modeLabel}: add ${tileName(t)}`, () => tap(t), `pick-${t}`)))));
    $("hand").replaceChildren(...S.concealed.slice().sort(order).map((t) =>
      tileButton(t, `take ${tileName(t)} out of the hand`, () => { S.concealed.splice(S.concealed.indexOf(t), 1); update(); }, "hand-tile")));
    $("melds").replaceChildren(...S.melds.map((m, i) => el("button", { type: "button", class: "meld", "data-testid": "meld",
      "aria-label": `take out the ${m.kind} of ${tileName(m.tiles[0])}`,
      onclick: () => { S.melds.splice(i, 1); update(); } },
    el("span", { class: "kind" }, m.kind.replace("concealed-kong", "c. kong")), ...m.tiles.map(tileFace))));
    $("bonus").replaceChildren(...S.bonus.slice().sort(order).map((t) =>
      tileButton(t, `take ${tileName(t)} out`, () => { S.bonus.splice(S.bonus.indexOf(t), 1); update(); }, "bonus-tile")));
    $("win").replaceChildren(...(S.win ? [tileButton(S.win, `take out the winning tile ${tileName(S.win)}`, () => { S.win = null; update(); }, "win-tile")] : []));
    $("events").replaceChildren(...EVENTS.map(([id, label]) => el("label", { class: "check" },
      el("input", { type: "checkbox", "data-testid": `event-${id}`, checked: S.events.has(id),
        onchange: (e) => { if (e.target.checked) S.events.add(id); else S.events.delete(id); update(); } }), label)));
    $("bao").hidden = !hasBao();
    $("liable").replaceChildren(el("option", { value: "" }, "nobody"),
      ...SEATS.map((s, i) => el("option", { value: String(i), disabled: i === S.seat, selected: S.liable === i }, names[i])));
    if (document.activeElement !== $("typed")) $("typed").value = typedText();
  }

  function tap(t) {
    try {
      if (S.mode === "win") { S.win = t; }
      else if (isBonus(t) || S.mode === "bonus") {
        if (!isBonus(t)) throw new Error(`${tileName(t)} is not a bonus tile: only flowers, seasons and animals go here`);
        S.bonus.push(t);
      } else if (S.mode === "set") {
        S.melds.push({ kind: S.kind, tiles: meldTiles(S.kind, t) });
      } else {
        S.concealed.push(t);
        if (!S.win && S.concealed.length + 3 * S.melds.length === 13) S.mode = "win";
      }
      update();
    } catch (exc) { showProblem(exc.message); }
  }

  function showProblem(msg) {
    $("problem").textContent = msg;
    $("problem").hidden = !msg;
    if (msg) {
      $("outcome").hidden = true;
      summary(msg, true);
    }
  }

  async function update() {
    draw();
    const wrong = problem();
    if (wrong) { showProblem(wrong); return; }
    const seq = ++S.seq;
    const body = Object.assign(request(), { detail: true, bonus_dealt: S.dealt });
    if (S.rules === "ledger") body.ledger = S.ledger.token;
    else if (S.rules === "house") {
      if (S.house === null) { showProblem("choose the house-rule file"); return; }
      body.house_rules = S.house;
    } else body.rules = S.rules;
    let r, data;
    try {
      r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      data = await r.json();
    } catch (exc) { if (seq === S.seq) showProblem("the server cannot be reached"); return; }
    if (seq !== S.seq) return;   // a later change is on its way
    if (!r.ok) { showProblem(data.message || `the server refused the hand (${r.status})`); return; }
    S.last = Object.assign(data, { request: request() });
    show(data);
  }

  function summary(msg, bad, link) {
    const box = $("summary");
    box.className = bad ? "summary bad" : "summary";
    box.replaceChildren(msg, link ? " · " : "", link ? el("a", { href: "#result" }, link) : "");
    box.hidden = !msg;
  }

  // ---- the answer in words
  function show(a) {
    const d = a.detail;
    const names = S.names;
    const nameOf = (letter) => names[SEATS.indexOf(letter)];
    showProblem("");
    $("outcome").hidden = false;
    const winner = names[S.seat];
    if (a.winning) $("headline").textContent = d.counts_tai ? `${winner} wins: ${a.tai} tai` : `${winner} wins`;
    else $("headline").textContent = `Not a win: ${a.reason}`;
    $("breakdown").replaceChildren(...a.patterns.map((p) => el("li", { "data-testid": "pattern", "data-id": p.id },
      el("span", {}, p.name + (p.count > 1 ? ` ×${p.count}` : "")), el("span", { class: "tai" }, `${p.tai} tai`))));
    if (!d.counts_tai) $("total").textContent = "No tai are counted at this table: a complete hand wins.";
    else if (a.raw_tai > a.tai) $("total").textContent = `${a.raw_tai} tai in all, paid as ${a.tai}: the cap is ${d.cap}.`;
    else $("total").textContent = `${a.raw_tai} tai in all (the cap is ${d.cap}).`;
    $("bao-line").hidden = !a.bao;
    if (a.bao) $("bao-line").textContent = `Bao: ${nameOf(a.bao.seat)} pays for the whole table (${a.bao.case.replaceAll("-", " ")}).`;
    const lines = [];
    for (const ln of d.lines) {
      lines.push(ln.payer === null ? `${nameOf(ln.payee)} scores ${ln.amount}` : `${nameOf(ln.payer)} pays ${nameOf(ln.payee)} ${ln.amount}`);
    }
    if (a.winning && d.scheme !== "table") lines.push("Nobody pays at this table.");
    for (const p of d.instant) {
      const others = SEATS.filter((s) => s !== p.seat).map(nameOf);
      lines.push(`${others.join(", ")} each pay ${nameOf(p.seat)} ${p.amount} for ${REASONS[p.reason] || p.reason}`);
    }
    if (!lines.length) lines.push("Nobody pays.");
    $("payments").replaceChildren(...lines.map((t) => el("li", { "data-testid": "payment" }, t)));
    $("net").textContent = "In all: " + SEATS.map((s) => `${nameOf(s)} ${d.total[s] > 0 ? "+" : ""}${d.total[s]}`).join(", ");
    $("to-ledger-row").hidden = !(S.ledger && S.ledger.canEdit && a.winning);
    summary($("headline").textContent, !a.winning, "details");
  }

  // ---- a hand for the evening's ledger (/score?ledger=<edit link token>)
  async function forLedger(token) {
    const r = await fetch(`/api/ledgers/${encodeURIComponent(token)}`);
    const d = await r.json();
    if (!r.ok) { showProblem(d.message || "no ledger has this link"); return; }
    const dealer = d.next.dealer;
    // seat i (East first) is held by player (dealer + i) % 4 in this hand
    S.ledger = { token, dealer, players: SEATS.map((_, i) => (dealer + i) % 4), data: d, canEdit: d.can_edit };
    S.names = S.ledger.players.map((p) => d.names[p]);
    S.round = WINDS.indexOf(d.next.round_wind);
    S.rules = "ledger";
    S.presets.ledger = { bao: d.has_bao, instant: d.has_instant };
    $("rules").closest("section").hidden = true;
    $("ledger-note").hidden = false;
    // a view link cannot change the ledger: say so before the hand is tapped in, not after
    const viewOnly = d.can_edit ? "" : "This is the ledger's view link: the hand is worked out here, but only the edit link can add it to the ledger. ";
    $("ledger-note").replaceChildren(`Hand ${d.next.number} of the ledger: ${d.next.dealer_name} deals (East), ${d.next.round_wind} round, ${d.rules} rules. ${viewOnly}`,
      el("a", { href: `/ledger/${encodeURIComponent(token)}` }, "Back to the ledger"));
    S.ledger.adding = window.sgmjRequest.change();
    $("to-ledger").addEventListener("click", (ev) => window.sgmjRequest.busy(ev.currentTarget, toLedger));
  }
  // one tap, one hand: the button is busy until the ledger's page opens, and a repeat of
  // the request (a retry, a double tap) carries the same key (request.js)
  async function toLedger() {
    const L = S.ledger, req = S.last.request, player = (seat) => L.players[seat];
    const hand = { concealed: req.concealed, melds: req.melds, bonus: req.bonus, win_tile: req.win_tile, events: req.events };
    if (req.fresh) hand.fresh = true;
    if (req.tiles_left !== undefined) hand.tiles_left = req.tiles_left;
    const body = { type: "win", winner: player(S.seat), from: S.discarder === null ? null : player(S.discarder), hand };
    if (S.liable !== null) body.liable = player(S.liable);
    const instant = S.last.detail.instant.map((p) => Object.assign({ player: player(SEATS.indexOf(p.seat)), reason: p.reason },
      S.dealt && ["cat-mouse", "rooster-centipede", "own-flower-season"].includes(p.reason) ? { dealt: true } : {}));
    if (instant.length) body.instant = instant;
    let r;
    try {
      r = await L.adding.send("POST", `/api/ledgers/${encodeURIComponent(L.token)}/hands`, { body });
    } catch (exc) { showProblem(exc.message); return; }
    const d = await r.json().catch(() => ({}));
    if (!r.ok) { showProblem(d.message || `the ledger refused the hand (${r.status})`); return; }
    location.href = `/ledger/${encodeURIComponent(L.token)}`;
    await new Promise(() => {});   // busy until the ledger's page replaces this one
  }

  // ---- set-up
  async function start() {
    const params = new URLSearchParams(location.search);
    for (const [i, w] of WINDS.entries()) {
      $("names").append(el("label", {}, w, el("input", { value: S.names[i], maxlength: "24", "data-testid": `name-${i}`,
        oninput: (e) => { S.names[i] = e.target.value.trim() || WINDS[i]; draw(); if (S.last) show(S.last); } })));
    }
    const opts = await (await fetch("/api/score/options")).json();
    S.presets = opts.presets;
    $("rules").replaceChildren(...Object.keys(opts.presets).map((p) => el("option", { value: p, selected: p === opts.default }, p)),
      el("option", { value: "house" }, "House rules (upload a file)"));
    $("rules").addEventListener("change", (e) => { S.rules = e.target.value; $("house-label").hidden = S.rules !== "house"; update(); });
    $("house-file").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      S.house = f ? await f.text() : null;
      update();
    });
    $("typed").addEventListener("input", (e) => {
      try { readTyped(e.target.value); update(); } catch (exc) { showProblem(exc.message); }
    });
    $("typed").addEventListener("blur", () => { $("typed").value = typedText(); });
    $("clear").addEventListener("click", () => {
      Object.assign(S, { concealed: [], melds: [], bonus: [], win: null, mode: "hand", last: null });
      S.events.clear();
      update();
    });
    $("dealt").addEventListener("change", (e) => { S.dealt = e.target.checked; update(); });
    $("liable").addEventListener("change", (e) => { S.liable = e.target.value === "" ? null : Number(e.target.value); update(); });
    $("fresh").addEventListener("change", (e) => { S.fresh = e.target.checked; update(); });
    $("tiles-left").addEventListener("input", (e) => { S.tilesLeft = e.target.value; update(); });
    if (params.get("ledger")) await forLedger(params.get("ledger"));
    update();
  }
  window.sgmjCalc = { state: S, update, readTiles };
  document.addEventListener("DOMContentLoaded", () => { start(); });
})();
