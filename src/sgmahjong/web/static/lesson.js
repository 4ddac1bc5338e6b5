// The guided first hand: the server sends the whole lesson (each step's coach text, the
// action it asks for and East's own view at that moment); this page draws a step and waits
// for exactly the action the coach asks for. Anything else gets a reminder and changes
// nothing. No other seat's tiles are ever sent.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { parseTiles, tileName, tileSvg } = window.sgmjDom;
  const NAMES = ["You", "Snail", "Rabbit", "Hedgehog"];
  const WINDS = ["East", "South", "West", "North"];
  const WHERE = ["", "on your right", "across", "on your left"];
  const L = { steps: [], step: 0, picked: null, cursor: 0, done: false };

  function row(tiles) {
    const d = document.createElement("span");
    d.className = "tiles";
    for (const t of tiles) d.append(tileSvg(t));
    return d;
  }
  const current = () => L.steps[L.step];
  const same = (a, b) => a && b && a.type === b.type && (a.tile || null) === (b.tile || null);

  // East's tiles in hand: sorted, the tile just drawn set apart at the end on East's turn
  function handTiles(view) {
    const tiles = parseTiles(view.concealed);
    const mine = view.phase === "turn" && view.turn === 0;
    if (mine && view.last_drawn && tiles.length % 3 === 2) {
      tiles.splice(tiles.indexOf(view.last_drawn), 1);
      return { tiles: [...tiles, view.last_drawn], apart: true };
    }
    return { tiles, apart: false };
  }

  function say(text) { $("lesson-message").textContent = text; }
  function refusal(step) {
    return step.expect ? `Not yet: the coach asks you to ${step.ask}.` : "Read the coach's note first, then go on.";
  }
  function attempt(action) {
    const step = current();
    if (L.done) return;
    if (!step.expect || !same(action, step.expect)) { say(refusal(step)); L.picked = null; draw(); return; }
    advance();
  }
  function advance() {
    L.picked = null;
    say("");
    if (L.step === L.steps.length - 1) {
      localStorage.setItem("sgmj.welcomed", "1");
      L.done = true;
      location.href = "/";
      return;
    }
    L.step += 1;
    const { tiles } = handTiles(current().view);
    L.cursor = Math.max(0, tiles.length - 1);
    draw();
  }
  function next() {
    if (current().expect) { say(refusal(current())); return; }
    advance();
  }
  function pick(i, tiles) {
    const step = current();
    if (!step.legal.some((a) => a.type === "discard")) { say(refusal(step)); return; }
    L.cursor = i;
    if (L.picked === i) { attempt({ type: "discard", tile: tiles[i] }); return; }
    L.picked = i;
    say("");
    draw();
  }

  function draw() {
    const step = current();
    const view = step.view;
    const main = $("lesson");
    main.dataset.step = String(L.step);
    main.dataset.kind = step.kind;
    $("lesson-pos").textContent = `Coach · step ${L.step + 1} of ${L.steps.length}`;
    $("lesson-title").textContent = step.title;
    $("lesson-text").textContent = step.text;
    $("lesson-log").textContent = step.log.join(" ");
    const nextBtn = $("lesson-next");
    nextBtn.hidden = step.kind !== "read";
    nextBtn.textContent = L.step === L.steps.length - 1 ? "Finish" : "Go on (Space)";
    // the other seats: name, wind, tiles held (a count), sets and discards
    const seats = $("lesson-seats");
    seats.replaceChildren();
    for (const s of [3, 2, 1]) {
      const sv = view.seats[s];
      const box = document.createElement("div");
      box.className = "seat";
      box.setAttribute("data-testid", `lesson-seat-${s}`);
      const head = document.createElement("p");
      head.textContent = `${NAMES[s]} · ${WINDS[s]} · ${WHERE[s]} · ${sv.concealed_count} tiles`;
      box.append(head, row(parseTiles(sv.discards)));
      for (const m of sv.melds) box.append(row(parseTiles(m.tiles)));
      seats.append(box);
    }
    const me = view.seats[0];
    $("lesson-melds").replaceChildren(...me.melds.map((m) => row(parseTiles(m.tiles))));
    $("lesson-discards").replaceChildren(row(parseTiles(me.discards)));
    const { tiles, apart } = handTiles(view);
    const expectTile = step.expect && step.expect.type === "discard" ? step.expect.tile : null;
    const hand = $("lesson-hand");
    hand.replaceChildren();
    tiles.forEach((t, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tile-btn";
      if (apart && i === tiles.length - 1) b.classList.add("apart");
      if (i === L.picked) b.classList.add("picked");
      if (i === L.cursor) b.classList.add("cursor");
      if (t === expectTile) b.classList.add("suggested");
      b.setAttribute("data-testid", "lesson-tile");
      b.dataset.tile = t;
      b.setAttribute("aria-label", tileName(t));
      b.append(tileSvg(t));
      b.addEventListener("click", () => pick(i, tiles));
      hand.append(b);
    });
    // claim buttons for what the rules allow now; the coach marks the one it asks for
    const acts = $("lesson-actions");
    acts.replaceChildren();
    for (const a of step.legal) {
      if (a.type === "discard") continue;
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("data-testid", `lesson-action-${a.type}`);
      if (a.type === "chow") {   // "Chow 3-4-5 Circles", from the lowest tile's name
        const n = Number(a.tile[0]);
        b.textContent = `Chow ${n}-${n + 1}-${n + 2} ${tileName(a.tile).replace(/^\d+ /, "")}`;
      } else {
        b.textContent = { pass: "Skip", win: "Win", pong: "Pong", kong: "Kong" }[a.type] || a.type;
      }
      if (same(a, step.expect)) b.classList.add("suggested", "primary");
      b.addEventListener("click", () => attempt(a));
      acts.append(b);
    }
    window.sgmjLesson = { step: L.step, kind: step.kind, steps: L.steps.length };
  }

  document.addEventListener("keydown", (ev) => {
    if (!L.steps.length || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const step = current();
    const { tiles } = handTiles(step.view);
    const key = ev.key.toLowerCase();
    const claim = (type) => {
      const a = step.legal.find((x) => x.type === type);
      if (a) attempt(a); else say(refusal(step));
    };
    // on a focused button, Space and Enter press that button (its own click)
    const onButton = ev.target.closest && ev.target.closest("button");
    switch (key) {
      case " ":
        if (onButton) return;
        next(); break;
      case "arrowleft": L.cursor = (L.cursor - 1 + tiles.length) % tiles.length; draw(); break;
      case "arrowright": L.cursor = (L.cursor + 1) % tiles.length; draw(); break;
      case "enter":
        if (onButton) return;
        pick(L.cursor, tiles); break;
      case "w": claim("win"); break;
      case "c": claim("chow"); break;
      case "p": claim("pong"); break;
      case "k": claim("kong"); break;
      case "s": claim("pass"); break;
      default: return;
    }
    ev.preventDefault();
  });
  $("lesson-next").addEventListener("click", next);

  fetch("/api/lesson").then((r) => r.json()).then((data) => {
    L.steps = data.steps;
    L.cursor = Math.max(0, handTiles(L.steps[0].view).tiles.length - 1);
    draw();
  });
})();
