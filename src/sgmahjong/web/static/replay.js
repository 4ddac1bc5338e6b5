// sgmahjong web table: the replay of a finished match (/t/<id>/replay).
// The server replays the record with the engine and sends every step's whole table; this
// page only draws them and moves between them. It knows no rules.
"use strict";
(() => {
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,40})\/replay\/?$/);
  if (!m) return;
  const { el, tileSvg, tilesRow, parseTiles, api, status, WINDS, handResult, scoreTable, points } = window.sgmjUI;
  const $ = (id) => document.getElementById(id);
  const R = { id: m[1], index: null, hands: {}, hand: 0, step: 0, loading: false };
  window.sgmjReplay = R;   // for browser tests: the replay's state, read-only by convention
  const base = `/api/tables/${encodeURIComponent(R.id)}/replay`;

  async function start() {
    $("replay").hidden = false;
    $("replay-back").href = `/t/${R.id}`;
    try { R.index = await api(base); } catch (e) {
      $("replay-text").textContent = e.message;
      status("No replay for this table (yet).");
      return;
    }
    const sel = $("replay-hand");
    sel.replaceChildren(...R.index.hands.map((h) => el("option", { value: h.number },
      `Hand ${h.number + 1} (${WINDS[h.round_wind]} round): ${h.title}`)));
    sel.addEventListener("change", () => goHand(Number(sel.value), 0));
    status(`Replay · ${R.index.rules} · ${R.index.quick ? "quick game" : "full match"}`);
    // a link may name a hand and step: #hand=2&step=10 (both counted from 1)
    const want = new URLSearchParams(location.hash.slice(1));
    const h = Math.max(0, Math.min(R.index.hands.length - 1, Number(want.get("hand") || 1) - 1));
    await goHand(h, Math.max(0, Number(want.get("step") || 1) - 1));
  }

  async function goHand(k, step) {
    if (!R.index || k < 0 || k >= R.index.hands.length || R.loading) return;
    if (!R.hands[k]) {
      R.loading = true;
      try { R.hands[k] = await api(`${base}?hand=${k}`); } catch (e) { status(e.message); return; } finally { R.loading = false; }
    }
    R.hand = k;
    const n = R.hands[k].steps.length;
    R.step = step === "last" ? n - 1 : Math.max(0, Math.min(step, n - 1));
    draw();
  }
  function go(step) {
    const h = R.hands[R.hand];
    if (!h) return;
    R.step = Math.max(0, Math.min(step, h.steps.length - 1));
    draw();
  }

  // ------------------------------------------------------------------ drawing
  function nameOf(h, seat) { return R.index.players[h.players[seat]]; }
  function seatBox(h, s, seat) {
    const sv = s.seats[seat];
    const kids = [el("div", { class: "who" },
      el("span", { class: "wind", title: "seat wind" }, WINDS[seat][0]),
      el("span", { class: "name" }, nameOf(h, seat)),
      seat === 0 ? el("span", { class: "small" }, "banker") : null,
      el("span", { class: "score", "data-testid": `replay-score-${seat}` }, points(s.scores[seat])))];
    // the tiles in hand, the one just drawn set apart as at the live table
    const tiles = parseTiles(sv.concealed);
    const hand = el("div", { class: "tiles small-tiles replay-hand", "data-testid": `replay-hand-${seat}`, "data-count": tiles.length });
    if (sv.drawn) tiles.splice(tiles.lastIndexOf(sv.drawn), 1);
    hand.append(...tiles.map(tileSvg));
    if (sv.drawn) { const d = tileSvg(sv.drawn); d.classList.add("drawn"); hand.append(d); }
    for (const meld of sv.melds) hand.append(el("div", { class: "meld", "data-kind": meld.kind }, parseTiles(meld.tiles).map(tileSvg)));
    kids.push(hand);
    if (sv.bonus) kids.push(tilesRow(parseTiles(sv.bonus), "small-tiles bonus"));
    const disc = tilesRow(parseTiles(sv.discards), "small-tiles discards");
    if (s.phase === "claims" && s.turn === seat && disc.lastChild) disc.lastChild.classList.add("latest");
    kids.push(disc);
    const box = $(`replay-seat-${seat}`);
    box.replaceChildren(...kids.filter((k) => k));
    box.classList.toggle("turn", s.turn === seat && s.phase !== "ended");
  }

  function summary(h) {
    // each winner's whole hand, as the live table showed it: the last step's tiles
    const last = h.steps[h.steps.length - 1];
    const sum = { ...h.summary, wins: h.summary.wins.map((w) => (w.hand ? w : { ...w, hand: {
      concealed: last.seats[w.seat].concealed, melds: last.seats[w.seat].melds,
      bonus: last.seats[w.seat].bonus } })) };
    const name = (p) => (p === null || p === undefined ? "nobody" : R.index.players[p]);
    const kids = handResult(sum, name, "");
    kids.push(scoreTable(R.index.players, sum.scores, sum.deltas, "replay-scores"));
    return kids;
  }

  function draw() {
    const h = R.hands[R.hand];
    const s = h.steps[R.step];
    const last = R.step === h.steps.length - 1;
    $("replay-hand").value = String(R.hand);
    $("replay-pos").textContent = `Step ${R.step + 1} of ${h.steps.length}`;
    $("replay-text").replaceChildren(el("span", {}, s.text), ...(s.tile ? [tileSvg(s.tile)] : []));
    for (let seat = 0; seat < 4; seat++) seatBox(h, s, seat);
    $("replay-centre").replaceChildren(
      el("div", {}, `${WINDS[h.round_wind]} round · hand ${h.number + 1}`),
      el("div", { "data-testid": "replay-wall" }, `Wall: ${s.wall} tiles to draw`),
      el("div", {}, s.phase === "ended" ? "Hand over" : `${WINDS[s.turn]} to play`),
      s.window && s.phase !== "turn" ? el("div", { class: "offer" }, tileSvg(s.window)) : el("span"));
    $("replay-summary").hidden = !last;
    if (last) $("replay-summary").replaceChildren(...summary(h));
    $("replay-first").disabled = $("replay-prev").disabled = R.step === 0;
    $("replay-next").disabled = $("replay-last").disabled = last;
    history.replaceState(null, "", `#hand=${R.hand + 1}&step=${R.step + 1}`);
  }

  // ------------------------------------------------------------------ controls
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(R.step - 1));
  $("replay-next").addEventListener("click", () => go(R.step + 1));
  $("replay-last").addEventListener("click", () => go(Infinity));
  document.addEventListener("keydown", (ev) => {
    if ($("replay").hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.matches && ev.target.matches("input, select, textarea")) return;
    switch (ev.key) {
      case "ArrowLeft": go(R.step - 1); break;
      case "ArrowRight": go(R.step + 1); break;
      case "Home": go(0); break;
      case "End": go(Infinity); break;
      case "PageUp": goHand(R.hand - 1, 0); break;
      case "PageDown": goHand(R.hand + 1, 0); break;
      default: return;
    }
    ev.preventDefault();
  });
  start();
})();
