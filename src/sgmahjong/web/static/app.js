// sgmahjong web table: plain JavaScript, no libraries, nothing fetched from elsewhere.
// The server owns the game: this page draws the view it is sent and sends back one of the
// legal actions it was offered. It knows no rules.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { el, parseTiles, tileName, tileSvg, icon, tilesRow } = window.sgmjDom;
  const WINDS = ["East", "South", "West", "North"];
  const S = {
    tableId: null, token: null, player: null, role: null, table: null, view: null,
    // hints on or off is the player's choice, kept in this browser as the sound's is
    request: null, n: 0, hints: null, hintsOn: localStorage.getItem("sgmj.hints") === "1",
    cursor: 0, picked: null, handTiles: null, started: false,
    // answered: the id of the request an action was sent for, until the server answers it
    // (ack, error) or sends another request; readySent: "Next hand" was pressed for this end
    answered: null, readySent: false,
    muted: localStorage.getItem("sgmj.muted") === "1", lastAt: {}, ws: null, retry: 0, over: false,
    // liveness: when the socket last brought anything, when the page last pinged, since
    // when a ping waits for an answer (null: none), and how often the page reconnected
    heardAt: 0, pingedAt: 0, unanswered: null, reconnects: 0, retryTimer: null,
    // the number of the last event received (n also follows the views): a reconnect
    // resumes after it, and a pong naming a later one means one was lost
    seen: 0,
    seat: null, board: null, aiTouched: false, matchEnd: null, lastHand: null, nextHandAt: 0,
  };

  // ------------------------------------------------------------------ helpers
  // "Ann pays", but "You pay": the lobby's default name is "You"
  function says(who, verb) {
    if (who !== "You") return `${who} ${verb}`;
    const [first, ...rest] = verb.split(" ");
    return ["You", first.replace(/s$/, ""), ...rest].join(" ");
  }
  const points = (n) => `${n} point${Math.abs(n) === 1 ? "" : "s"}`;
  function status(text) { $("status").textContent = text; }
  // GET without a body; a POST is a change, sent as `change` (request.js): carried out once
  // however often the network delivers it
  async function api(path, body, token, change) {
    const method = body === undefined ? "GET" : "POST";
    const r = change ? await change.send(method, path, { body, token })
      : await window.sgmjRequest.send(method, path, { body, token });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      // FastAPI's validation errors are a list: name the first field that is wrong
      const d = Array.isArray(data.detail) && data.detail.length ? data.detail[0] : null;
      const field = d && Array.isArray(d.loc) ? d.loc[d.loc.length - 1] : null;
      const err = new Error(data.message || (d ? `${field}: ${d.msg}` : data.detail) || `error ${r.status}`);
      err.status = r.status;
      throw err;
    }
    return data;
  }
  const seatKey = (id) => `sgmj.seat.${id}`;
  // a preset as a newcomer reads it; the others with their description (less its source)
  function presetLabel(preset, description) {
    if (preset === "casual") return "casual (any complete hand wins)";
    if (preset === "standard") return "standard (Singapore tai)";
    const d = (description || "").replace(/^Seed \d+:?\s*/, "");
    return d ? `${preset} (${d})` : preset;
  }
  function show(id) {
    for (const s of ["lobby", "join", "waiting", "table", "missing"]) $(s).hidden = s !== id;
  }

  // ------------------------------------------------------------------ sound
  let audio = null;
  function beep(freq, ms, when = 0) {
    if (S.muted) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = freq;
      o.type = "triangle";
      const t0 = audio.currentTime + when;
      g.gain.setValueAtTime(0.12, t0);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + ms / 1000);
      o.connect(g).connect(audio.destination);
      o.start(t0);
      o.stop(t0 + ms / 1000 + 0.02);
    } catch (_) { /* no audio here */ }
  }
  const SOUNDS = {
    turn: () => beep(660, 120),
    discard: () => beep(300, 60),
    claim: () => { beep(520, 90); beep(700, 90, 0.1); },
    win: () => [523, 659, 784, 1046].forEach((f, i) => beep(f, 160, i * 0.12)),
  };
  function setMute(m) {
    S.muted = m;
    localStorage.setItem("sgmj.muted", m ? "1" : "0");
    $("mute").replaceChildren(icon(m ? "sound-off" : "sound-on"));
    $("mute").setAttribute("aria-pressed", String(m));
  }

  // ------------------------------------------------------------------ lobby
  async function lobby() {
    show("lobby");
    status("");
    // the form never goes to the server by itself, even when tapped before it is ready
    // (the page's HTML keeps the button disabled until then)
    $("create-form").addEventListener("submit", (ev) => ev.preventDefault());
    const opts = await api("/api/options");
    const rules = $("create-rules");
    for (const p of opts.presets) {
      rules.append(el("option", { value: p, selected: p === opts.default_rules }, presetLabel(p)));
    }
    const levels = [...document.querySelectorAll(".ai-level")];
    levels.forEach((sel, i) => {
      for (const l of opts.levels) {
        sel.append(el("option", { value: l, selected: l === opts.default_ai[i] }, l));
      }
      sel.addEventListener("change", () => { S.aiTouched = true; });
    });
    // each scoring has its own opponents (casual, for newcomers: the gentlest), until the
    // user picks the AI players themselves
    const byRules = opts.default_ai_by_rules || {};
    const followRules = () => {
      const want = byRules[rules.value];
      if (S.aiTouched || !want) return;
      levels.forEach((sel, i) => { sel.value = want[i]; });
    };
    rules.addEventListener("change", followRules);
    followRules();
    $("create-seed-row").hidden = !opts.allow_seed;
    const creating = window.sgmjRequest.change();
    $("create-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      window.sgmjRequest.busy($("create-form").querySelector('[type="submit"]'), async () => {
      try {
        const body = {
          name: $("create-name").value, rules: rules.value, quick: $("create-quick").checked,
          hints: $("create-hints").checked,
          ai: [...document.querySelectorAll(".ai-level")].map((s) => s.value),
        };
        const seed = $("create-seed").value.trim();
        if (opts.allow_seed && seed) body.seed = seed;   // as text: JS numbers lose digits past 2^53
        const t = await api("/api/tables", body, null, creating);
        localStorage.setItem(seatKey(t.table_id), JSON.stringify({ token: t.token, player: 0 }));
        location.href = `/t/${t.table_id}`;
        await new Promise(() => {});   // busy until the table's page replaces this one
      } catch (e) { status(e.message); }
      });
    });
    $("create-form").querySelector('[type="submit"]').disabled = false;
  }

  // ------------------------------------------------------------------ table page
  async function tablePage(id) {
    S.tableId = id;
    let info;
    try { info = await api(`/api/tables/${encodeURIComponent(id)}`); } catch (e) {
      if (e.status === 404) { show("missing"); status(""); return; }
      status(`The table could not be opened: ${e.message}`);
      return;
    }
    S.table = info;
    const saved = JSON.parse(localStorage.getItem(seatKey(id)) || "null");
    if (saved && saved.token) { S.token = saved.token; connect(); return; }
    showJoin(info);
  }
  function seatLine(s) {
    const kind = s.kind === "open" ? "free seat" : s.kind === "ai" ? `AI (${s.level})` :
      s.connected ? "here" : "away";
    return el("div", { "data-testid": `seat-${s.player}` }, `${s.name} — ${kind}`);
  }
  function rulesLine(info) {
    const game = info.quick ? `quick game (${info.quick_hands} hands)` : "full match";
    return `${presetLabel(info.preset, info.description)} · ${game}`;
  }
  function showJoin(info) {
    show("join");
    const host = info.seats.find((s) => s.player === 0);
    $("join-title").textContent = host && host.kind === "human" ?
      `${host.name} invites you to a table` : "Join the table";
    $("join-rules").textContent = `Rules: ${rulesLine(info)}`;
    $("join-seats").replaceChildren(...info.seats.map(seatLine));
    // once playing, a newcomer may take over an AI's seat (the server says when: between hands)
    const ais = info.status === "playing" ? info.seats.filter((s) => s.kind === "ai") : [];
    $("join-seat").replaceChildren(...ais.map((s) => el("option", { value: s.player },
      `Take over ${s.name}'s seat from the next hand`)));
    $("join-seat-label").hidden = ais.length === 0;
    const canJoin = ais.length > 0 ||
      (info.status === "waiting" && info.seats.some((s) => s.kind === "open"));
    $("join-form").hidden = !canJoin;
    $("join-form").querySelector('[data-testid="join"]').textContent =
      ais.length ? "Take over the seat" : "Take a seat";
    status(ais.length ? "The game has started: take over an AI seat between hands, or watch." :
      canJoin ? "Pick a name and take a free seat, or watch." :
        info.status === "waiting" ? "This table is full: you can watch." :
          "The game has started: you can watch.");
    $("join-replay").hidden = info.status !== "finished";
    $("join-replay-link").href = `/t/${encodeURIComponent(info.id)}/replay`;
    if (info.status === "finished") status("The match is over: watch the replay, or its final table.");
  }
  const joining = window.sgmjRequest.change();
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    window.sgmjRequest.busy($("join-form").querySelector('[type="submit"]'), async () => {
      // a seat already taken from this browser is not taken again
      if (S.token) return;
      try {
        const body = { name: $("join-name").value };
        if (!$("join-seat-label").hidden) body.player = Number($("join-seat").value);
        const r = await api(`/api/tables/${S.tableId}/join`, body, null, joining);
        localStorage.setItem(seatKey(S.tableId), JSON.stringify({ token: r.token, player: r.player }));
        S.token = r.token;
        connect();
      } catch (e) { status(e.message); }
    });
  });
  $("watch").addEventListener("click", () => { S.token = null; connect(); });
  $("copy").addEventListener("click", async () => {
    $("invite").select();
    try { await navigator.clipboard.writeText($("invite").value); status("Link copied."); }
    catch (_) { document.execCommand && document.execCommand("copy"); }
  });
  const starting = window.sgmjRequest.change();
  $("start").addEventListener("click", (ev) => window.sgmjRequest.busy(ev.currentTarget, async () => {
    try {
      await api(`/api/tables/${S.tableId}/start`, {}, S.token, starting);
      // started: the socket says so a moment later; until then a tap must find no button
      // (a new start would be refused as already made)
      S.started = true;
      $("start").hidden = true;
    } catch (e) { status(e.message); }
  }));

  // ------------------------------------------------------------------ the socket
  // A socket can die without a close (a phone changing networks, a proxy dropping it):
  // the page pings every PING_EVERY ms; when nothing at all has come for SILENCE ms while
  // a ping waits, or a pong says the server handed this socket an event the page never
  // got, it gives the socket up and comes back from S.seen (last_seen) as after a close,
  // waiting 1 s, 2 s, 4 s ... (at most RETRY_CAP) between tries.
  const PING_EVERY = 5000, SILENCE = 10000, RETRY_CAP = 16000;
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${S.tableId}`);
    S.ws = ws;
    S.unanswered = null;
    ws.onopen = () => {
      S.heardAt = Date.now();
      const hello = { type: "hello" };
      if (S.token) hello.token = S.token; else hello.spectate = true;
      if (S.seen > 0) hello.last_seen = S.seen;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      if (S.ws !== ws) return;      // a socket given up on: what it still brings is old
      S.heardAt = Date.now();
      S.unanswered = null;
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      handle(msg);
    };
    ws.onclose = (ev) => {
      if (S.ws !== ws) return;
      if (ev.code === 4401) {
        localStorage.removeItem(seatKey(S.tableId));
        S.token = null;
        showJoin(S.table);
        return;
      }
      if (ev.code === 4404 || ev.code === 4403) { status("This table cannot be opened here."); return; }
      if (S.over) return;
      reconnect("Connection lost");
    };
  }
  function reconnect(why) {
    const old = S.ws;
    S.ws = null;
    if (old && old.readyState <= WebSocket.OPEN) { try { old.close(); } catch (_) { /* gone */ } }
    const wait = Math.min(RETRY_CAP, 1000 * 2 ** S.retry++);
    status(`${why}: reconnecting in ${Math.round(wait / 1000)} s…`);
    clearTimeout(S.retryTimer);
    S.retryTimer = setTimeout(() => {
      S.reconnects += 1;
      status("Reconnecting…");
      connect();
    }, wait);
  }
  function heartbeat() {
    const ws = S.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || S.over) return;
    const now = Date.now();
    if (S.unanswered !== null && now - S.heardAt >= SILENCE) {
      reconnect("No word from the server");
      return;
    }
    if (now - S.pingedAt >= PING_EVERY) {
      S.pingedAt = now;
      if (S.unanswered === null) S.unanswered = now;
      ws.send(JSON.stringify({ type: "ping" }));
    }
  }
  setInterval(heartbeat, 1000);
  function send(msg) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  }

  function handle(msg) {
    switch (msg.type) {
      case "welcome":
        S.player = msg.player; S.role = msg.role; S.table = msg.table; S.retry = 0;
        tableInfo(); break;
      // the server handed this socket event n: one the page lacks was lost on the way
      case "pong": if (msg.n > S.seen && !S.over) reconnect("Some moves went missing"); break;
      case "table": S.table = msg.table; tableInfo(); break;
      case "hello": S.seat = msg.seat; break;
      case "event": S.n = msg.n; S.seen = msg.n; onEvent(msg.event); break;
      case "view": S.view = msg.view; S.board = board(msg); S.n = Math.max(S.n, msg.n); S.request = null; S.answered = null; render(); break;
      case "request":
        S.view = msg.view; S.board = board(msg); S.request = msg; S.n = Math.max(S.n, msg.n); S.picked = null;
        S.answered = null;
        // deadline_ms is the time left when sent (0: no limit): fix it to this clock
        msg.deadlineAt = msg.deadline_ms > 0 ? Date.now() + msg.deadline_ms : 0;
        if (S.hintsOn && S.table && S.table.hints) send({ type: "hints" });
        render(); SOUNDS.turn(); break;
      case "ack": S.request = null; S.answered = null; render(); break;
      case "hints": S.hints = msg.hints; renderHints(); render(); break;
      case "hand-end": S.hints = null; S.review = msg.review || null; renderHints(); handEnd(msg.hand, msg.ladder, S.review, msg.next_in_ms); break;
      case "match-end": matchEnd(msg); break;
      // a refused action can be tried again (the request is still open)
      case "error": status(msg.message); if (S.answered !== null) { S.answered = null; render(); } break;
      case "notice": status(msg.message); break;
      default: break;
    }
  }

  // ------------------------------------------------------------------ names and seats
  // who sits at each seat of the hand in view, and their match totals: the server's
  // figures, shown as they are (a total is never worked out again here)
  function board(msg) {
    return Array.isArray(msg.players) && Array.isArray(msg.totals) ?
      { players: msg.players, totals: msg.totals } : null;
  }
  function playerAt(seat) {
    const s = (S.table && S.table.seats || []).find((x) => x.wind === seat);
    if (s) { S.lastAt[seat] = s.player; return s.player; }
    // between hands the table has no winds: name the seats as in the hand just played
    return S.lastAt[seat] ?? null;
  }
  function nameAt(seat) {
    const p = playerAt(seat);
    return p === null ? WINDS[seat] : S.table.seats[p].name;
  }
  function playerName(p) { return p === null || p === undefined ? "nobody" : S.table.seats[p].name; }

  function tableInfo() {
    const t = S.table;
    if (!t) return;
    if (t.status === "waiting") {
      show("waiting");
      $("invite").value = `${location.origin}/t/${t.id}`;
      $("wait-seats").replaceChildren(...t.seats.map(seatLine));
      $("start").hidden = S.player !== 0 || S.started;
      $("wait-note").textContent = S.player === 0 ?
        "Start when everyone is here; AI players take the free seats." :
        "The host starts the game.";
      status(`${t.rules} · ${t.quick ? "quick game" : "full match"} · waiting`);
      return;
    }
    show("table");
    status(`${t.hand_label} · ${t.rules}${S.role === "spectator" ? " · watching" : ""}`);
    render();
  }

  function onEvent(e) {
    const who = e.seat !== undefined && e.seat !== null ? nameAt(e.seat) : "";
    let text = null;
    switch (e.type) {
      case "hand-started": text = `Hand ${e.hand_number + 1} begins (${WINDS[e.round_wind]} round).`; resultMakesWay(); break;
      case "discarded": text = `${says(who, "throws")} ${tileName(e.tile)}.`; SOUNDS.discard(); break;
      case "claimed": text = `${says(who, "takes")} ${tileName(e.tile)} for a ${e.kind}.`; SOUNDS.claim(); break;
      case "kong-declared": text = `${says(who, "declares")} a kong of ${tileName(e.tile)}.`; SOUNDS.claim(); break;
      case "bonus-exposed": text = `${says(who, "sets aside")} ${tileName(e.tile)}.`; break;
      case "won": text = `${says(who, "wins")} on ${tileName(e.tile)}!`; SOUNDS.win(); break;
      case "hand-drawn": text = "The hand is drawn."; break;
      default: break;
    }
    if (text) {
      const log = $("log");
      log.append(el("li", { "data-n": S.n }, text));
      while (log.children.length > 200) log.firstChild.remove();
      log.scrollTop = log.scrollHeight;
    }
  }

  // ------------------------------------------------------------------ drawing
  // the player at a seat of the hand in view (the table's winds may be the next hand's)
  function viewPlayer(seat) { return S.board ? S.board.players[seat] : playerAt(seat); }
  function viewName(seat) {
    const p = viewPlayer(seat);
    return p === null || p === undefined ? WINDS[seat] : S.table.seats[p].name;
  }
  function seatArea(seat, v, mine) {
    const sv = v.seats[seat];
    const p = viewPlayer(seat);
    const info = p === null || p === undefined ? null : S.table.seats[p];
    const score = S.board ? S.board.totals[seat] : null;   // only the server's figure
    const kids = [el("div", { class: "who" },
      el("span", { class: "wind", title: "seat wind" }, WINDS[seat][0]),
      el("span", { class: "name" }, info ? info.name : WINDS[seat]),
      info && info.kind === "ai" ? el("span", { class: "small" }, "AI") : null,
      info && info.standin ? el("span", { class: "small" }, "(AI playing for them)") : null,
      score === null ? null : el("span", { class: "score", "data-testid": `score-${seat}`, "data-score": score }, points(score)))];
    const row = el("div", { class: "tiles small-tiles" });
    for (const m of sv.melds) row.append(el("div", { class: "meld", "data-kind": m.kind }, parseTiles(m.tiles).map(tileSvg)));
    if (!mine) for (let i = 0; i < sv.concealed_count; i++) row.append(tileSvg(null));
    kids.push(row);
    if (sv.bonus) kids.push(tilesRow(parseTiles(sv.bonus), "small-tiles bonus"));
    const disc = tilesRow(parseTiles(sv.discards), "small-tiles discards");
    if (v.phase === "claims" && v.turn === seat && disc.lastChild) disc.lastChild.classList.add("latest");
    kids.push(disc);
    const box = $(["seat-me", "seat-right", "seat-top", "seat-left"][(seat - base(v) + 4) % 4]);
    box.replaceChildren(...kids);
    box.classList.toggle("turn", v.turn === seat && v.phase !== "ended" && S.table.in_hand);
    box.dataset.seat = seat;
  }
  function base(v) { return v.seat === null || v.seat === undefined ? 0 : v.seat; }

  function myTiles(v) {
    const tiles = parseTiles(v.concealed);
    if (v.last_drawn && v.turn === v.seat && v.phase === "turn") {
      const i = tiles.lastIndexOf(v.last_drawn);
      if (i >= 0) { tiles.splice(i, 1); tiles.push(v.last_drawn); return { tiles, drawn: tiles.length - 1 }; }
    }
    return { tiles, drawn: -1 };
  }
  const legal = () => (S.request ? S.request.legal : []);
  // the open request has been answered from this page and the answer is on its way
  const answering = () => S.request !== null && S.answered === S.request.id;
  const canDiscard = (t) => legal().some((a) => a.type === "discard" && a.tile === t);

  function render() {
    const v = S.view;
    if (!v || !S.table || S.table.status === "waiting") return;
    const me = base(v);
    for (let s = 0; s < 4; s++) seatArea(s, v, S.role === "player" && s === me);
    const over = v.phase === "ended" || !S.table.in_hand;
    const offer = v.window_tile && !over ? el("div", { class: "offer" }, el("div", { class: "small" }, `${viewName(v.turn)} offers`), tileSvg(v.window_tile)) : null;
    $("centre").replaceChildren(
      el("div", {}, `${WINDS[v.round_wind]} round · ${S.table.hand_label}`),
      el("div", { "data-testid": "wall-count" }, `Wall: ${v.live_remaining} tiles to draw`),
      el("div", { "data-testid": "turn" }, S.over || S.table.status === "finished" ? "Match over" :
        over ? "Hand over" : `${viewName(v.turn)} to play`),
      ...(offer ? [offer] : []));
    // the hand
    const hand = $("hand");
    if (S.role !== "player") { hand.replaceChildren(el("p", { class: "small" }, "Watching: only public tiles are shown.")); $("actions").replaceChildren(); return; }
    const { tiles, drawn } = myTiles(v);
    S.cursor = Math.max(0, Math.min(S.cursor, tiles.length - 1));
    const suggested = S.hintsOn && S.hints && S.hints.discard ? S.hints.discard.tile : null;
    // a tile picked stays picked only while the hand is the one it was picked from
    if (S.handTiles && S.handTiles.join() !== tiles.join()) S.picked = null;
    S.handTiles = tiles;
    // The buttons are kept from one drawing to the next and changed in place: a drawing
    // between a tap's press and its release (a hint or a move arriving) that put new
    // buttons there would leave the browser no button to send the click to, and the tap
    // would be lost.
    if (!hand.querySelector(":scope > .tile-btn")) hand.replaceChildren();
    tiles.forEach((t, i) => {
      let b = hand.children[i];
      if (!b) {
        b = el("button", { type: "button", class: "tile-btn", role: "option", "data-testid": "hand-tile" });
        b.addEventListener("click", () => { S.cursor = Number(b.dataset.index); pickOrThrow(S.handTiles); });
        hand.append(b);
      }
      if (b.dataset.tile !== t) {
        b.dataset.tile = t;
        b.title = tileName(t);
        b.replaceChildren(tileSvg(t));
      }
      b.dataset.index = String(i);
      b.setAttribute("aria-selected", String(S.picked === i));
      b.classList.toggle("selected", S.picked === i);
      b.classList.toggle("drawn", i === drawn);
      b.classList.toggle("suggested", t === suggested && canDiscard(t));
      b.tabIndex = i === S.cursor ? 0 : -1;
    });
    while (hand.children.length > tiles.length) hand.lastElementChild.remove();
    renderActions(tiles);
  }

  function pickOrThrow(tiles) {
    if (answering()) return;    // a tap after the throw: the tile is already on its way
    const t = tiles[S.cursor];
    if (S.picked === S.cursor && canDiscard(t)) { act({ type: "discard", tile: t }); return; }
    S.picked = S.cursor;
    render();
    focusCursor();
  }
  function focusCursor() {
    const b = document.querySelector(`.tile-btn[data-index="${S.cursor}"]`);
    if (b) b.focus();
  }
  function label(a) {
    switch (a.type) {
      case "win": return "Win (W)";
      case "pong": return "Pong (P)";
      case "pass": return "Skip (S)";
      case "chow": {
        // "Chow 3-4-5 Circles": the suit's name from the lowest tile's ("3 Circles")
        const n = Number(a.tile[0]);
        const suit = tileName(a.tile).replace(/^\d+\s*/, "");
        return `Chow ${n}-${n + 1}-${n + 2} ${suit} (C)`;
      }
      case "kong": return `Kong ${tileName(a.tile)} (K)`;
      default: return a.type;
    }
  }
  function renderActions(tiles) {
    const box = $("actions");
    const buttons = [];
    for (const a of legal()) {
      if (a.type === "discard") continue;
      buttons.push(el("button", {
        type: "button", class: a.type === "win" ? "primary" : "", "data-testid": `action-${a.type}`,
        "data-action": JSON.stringify(a), onclick: () => act(a), ...busyAttrs(),
      }, label(a)));
    }
    const t = tiles[S.picked === null ? S.cursor : S.picked];
    if (t && canDiscard(t)) {
      buttons.push(el("button", { type: "button", "data-testid": "action-discard", onclick: () => act({ type: "discard", tile: t }), ...busyAttrs() }, `Throw ${tileName(t)} (Enter)`));
    }
    if (S.table.hints) {
      buttons.push(el("button", { type: "button", "data-testid": "toggle-hints", "aria-pressed": String(S.hintsOn), onclick: toggleHints }, S.hintsOn ? "Hide hints (H)" : [icon("hint"), " Hints (H)"]));
    }
    if (S.request && S.request.deadlineAt) {
      buttons.push(el("span", { class: "countdown", "data-testid": "countdown", role: "timer", title: "Time left for this decision" }));
    }
    box.replaceChildren(...buttons);
    tick();
  }
  function tick() {
    const next = document.querySelector('[data-testid="next-hand-in"]');
    if (next && S.nextHandAt) {
      const left = Math.max(0, Math.ceil((S.nextHandAt - Date.now()) / 1000));
      next.textContent = left > 0 ? `The next hand starts in ${left} s, or as soon as everyone is ready.` :
        "The next hand is starting…";
    }
    const c = document.querySelector('[data-testid="countdown"]');
    if (!c || !S.request || !S.request.deadlineAt) return;
    const left = Math.max(0, Math.ceil((S.request.deadlineAt - Date.now()) / 1000));
    c.replaceChildren(icon("timer"), ` ${left} s`);
    c.classList.toggle("low", left <= 5);
  }
  setInterval(tick, 250);
  // The decision buttons are busy (disabled) while an answer is on its way: the server
  // takes one answer to a request, so a second tap would only be refused ("it is not your
  // decision now", "request N is no longer open") and that refusal shown. One answer is
  // sent per request; the buttons come back with the server's ack, its error or the next
  // request.
  function busyAttrs() { return answering() ? { disabled: true, "aria-busy": "true" } : {}; }
  function act(action) {
    if (!S.request || answering()) return;
    send({ type: "action", id: S.request.id, action });
    S.answered = S.request.id;
    S.picked = null;
    render();
  }
  function toggleHints() {
    if (!S.table || !S.table.hints) return;
    S.hintsOn = !S.hintsOn;
    try { localStorage.setItem("sgmj.hints", S.hintsOn ? "1" : "0"); } catch (_) { /* private mode */ }
    if (S.hintsOn) send({ type: "hints" });
    renderHints();
    render();
  }
  function renderHints() {
    const box = $("hints");
    box.hidden = !(S.hintsOn && S.hints);
    if (box.hidden) return;
    const h = S.hints;
    const lines = [];
    const add = (text, lead) => {
      if (text !== null) lines.push(el("p", {}, lead ? el("b", {}, lead) : null, text));
    };
    if (Array.isArray(h.lines)) {
      // the server's sentences, in its order
      for (const line of h.lines) {
        const text = hintText(line);
        if (text !== null) lines.push(el("p", { "data-kind": line.kind }, line.kind === "win" ? el("b", {}, text) : text));
      }
    } else if (h.discard !== null && h.discard !== undefined) {
      const text = hintText(h.discard);
      add(text, text !== null && /^Throw\b/.test(text) ? null : `Throw ${tileName(h.discard.tile)}: `);
    }
    // the known parts in their order, then any other text the server sends; a part that is
    // absent (null, empty) is left out
    const order = ["win", "waits", "tai", "claims", "bao"];
    const keys = Array.isArray(h.lines) ? [] : [...order.filter((k) => k in h),
      ...Object.keys(h).filter((k) => !order.includes(k) && k !== "discard")];
    for (const k of keys) {
      for (const item of Array.isArray(h[k]) ? h[k] : [h[k]]) add(hintText(item), k === "bao" ? "Careful: " : null);
    }
    if (legal().some((a) => a.type === "win") && !lines.some((p) => /press W/.test(p.textContent))) {
      lines.unshift(el("p", { class: "win-hint" }, el("b", {}, "You can win: press W.")));
    }
    box.replaceChildren(...lines);
  }
  // a hint part's sentence: text, or an object holding one; null when there is none
  function hintText(x) {
    const t = typeof x === "string" ? x :
      x !== null && typeof x === "object" ? (typeof x.text === "string" ? x.text : x.sentence) : null;
    return typeof t === "string" && t.trim() !== "" ? t : null;
  }

  // ------------------------------------------------------------------ after a hand
  function overlay(...kids) {
    $("overlay-body").replaceChildren(...kids.filter((k) => k));
    $("overlay").hidden = false;
    const b = $("overlay-body").querySelector("button, a");
    if (b) b.focus();
  }
  // stars belong to the ladder table's creator (seat 0), not to someone watching
  function ladderNote(l) {
    return l && S.player === 0 && window.sgmjLadder ? window.sgmjLadder.award(l) : null;
  }
  // A hand's result: who won with what, where the tai came from, who paid. The replay
  // page draws its hand ends with this too.
  // Sentences the server sends (``text``) are shown as they are; the page only composes
  // one where a server sends none.
  function handResult(h, nameOf, title) {
    const kids = [el("h2", { "data-testid": "hand-end" }, title + (h.wins.length ?
      h.wins.map((w) => says(w.name, "wins")).join(", ") : "Drawn hand"))];
    if (!h.wins.length && hintText(h.drawn_text) !== null) kids.push(el("p", {}, h.drawn_text));
    for (const w of h.wins) {
      kids.push(hintText(w.text) !== null ? el("p", { class: "win-line" }, tileSvg(w.tile), " ", w.text) :
        el("p", { class: "win-line" }, `${w.name} won on `, tileSvg(w.tile),
          w.self_drawn ? " self-drawn." : ` from ${nameOf(w.discarder)}.`));
      if (w.hand) kids.push(winningHand(w));
      // rules that count no tai (casual) give a win no pattern and no tai: no tai table
      if (!w.patterns.length && w.raw_tai === 0) continue;
      const rows = w.patterns.map((p) => el("tr", {}, el("td", {}, p.name + (p.count > 1 ? ` ×${p.count}` : "")), el("td", { class: "num" }, `${p.tai} tai`)));
      rows.push(el("tr", {}, el("th", {}, "Total" + (w.raw_tai !== w.tai ? ` (${w.raw_tai} before the cap)` : "")), el("th", { class: "num" }, `${w.tai} tai`)));
      kids.push(el("table", { "data-testid": "tai-breakdown" }, rows));
    }
    if (h.payments.length) {
      const why = (p) => (hintText(p.why) === null ? "" : ` (${p.why})`);
      kids.push(el("h3", {}, "Payments"), el("ul", { "data-testid": "payments" }, h.payments.map((p) => el("li", {},
        hintText(p.text) !== null ? p.text :
          p.payer === null || p.payer === undefined ?
            `${says(nameOf(p.payee), "scores")} ${points(p.amount)}${why(p)}.` :
            `${says(nameOf(p.payer), "pays")} ${nameOf(p.payee)} ${points(p.amount)}${why(p)}.`))));
    }
    const along = [...(h.payouts || []), ...(h.bao || [])].map(hintText).filter((t) => t !== null);
    if (along.length) kids.push(el("h3", {}, "Along the way"), el("ul", {}, along.map((t) => el("li", {}, t))));
    return kids;
  }
  // the winner's whole hand, as a win shows it to the table: tiles in hand (the winning
  // tile among them), the declared sets, the bonus tiles
  function winningHand(w) {
    const held = parseTiles(w.hand.concealed).map(tileSvg);
    const winTile = held.map((t) => t.dataset.tile).lastIndexOf(w.tile);
    if (winTile >= 0) held[winTile].classList.add("win-tile");
    const row = el("div", { class: "tiles winning-hand", "data-testid": "winning-hand", "data-player": w.player },
      el("div", { class: "concealed", "data-testid": "winning-concealed" }, held),
      w.hand.melds.map((m) => el("div", { class: "meld", "data-kind": m.kind, "data-testid": "winning-meld" }, parseTiles(m.tiles).map(tileSvg))));
    if (w.hand.bonus) row.append(el("div", { class: "bonus", "data-testid": "winning-bonus" }, parseTiles(w.hand.bonus).map(tileSvg)));
    return row;
  }
  // The review of your play in the hand, sent to you alone: its sentences are the
  // server's, each explained decision with its tiles drawn (yours, then Owl's).
  function reviewPanel(r) {
    if (!r) return null;
    const kids = [el("h3", {}, "What could you have done better?")];
    if (r.head) kids.push(el("p", { "data-testid": "review-head" }, r.head));
    if (r.shown.length) {
      kids.push(el("ol", {}, r.shown.map((d) => el("li", { "data-testid": "review-item" },
        el("span", { class: "tiles review-tiles" }, d.tiles.flatMap((t, i) =>
          (i ? [el("span", { class: "review-arrow", title: "Owl's choice" }, "→"), tileSvg(t)] : [tileSvg(t)]))), " ",
        el("span", { class: "review-text" }, d.text)))));
    }
    if (r.deal_ins.length) {
      kids.push(el("ul", {}, r.deal_ins.map((d) => el("li", { "data-testid": "review-deal-in" },
        el("span", { class: "tiles review-tiles" }, tileSvg(d.tile)), " ",
        el("span", { class: "review-text" }, d.text)))));
    }
    if (r.tally) kids.push(el("p", { class: "review-tally", "data-testid": "review-tally" }, r.tally));
    // what the stand-in chose for you (time up, or away) is not yours: said, not reviewed
    if (r.standin_line) kids.push(el("p", { class: "review-tally", "data-testid": "review-standin" }, r.standin_line));
    return el("section", { class: "review", "data-testid": "review", "data-seat": r.seat }, ...kids);
  }
  // nextInMs: the longest wait for the next hand (the server's figure; it starts sooner
  // when every player is ready)
  function handEnd(h, ladder, review, nextInMs) {
    S.lastHand = { h, review };
    S.readySent = false;
    S.nextHandAt = nextInMs > 0 ? Date.now() + nextInMs : 0;
    overlay(...resultBox(h, ladder, review, false));
    tick();
  }
  // again: the result read once more during the next hand (its button only closes it)
  function resultBox(h, ladder, review, again) {
    const kids = handResult(h, playerName, `Hand ${h.number + 1}: `);
    kids.push(scoreTable(S.table.seats.map((s) => s.name), h.scores, h.deltas, "scores"));
    kids.push(reviewPanel(review));
    if (!again) kids.push(ladderNote(ladder));
    if (again) {
      kids.push(el("button", { type: "button", class: "primary", "data-testid": "close-result",
        onclick: () => { $("overlay").hidden = true; } }, "Back to the table"));
      return kids;
    }
    if (S.nextHandAt && !S.matchEnd) kids.push(el("p", { class: "small", "data-testid": "next-hand-in", role: "timer" }));
    kids.push(el("button", { type: "button", class: "primary", "data-testid": "next-hand", onclick: () => {
      if (S.matchEnd) { showMatchEnd(S.matchEnd); return; }
      $("overlay").hidden = true;
      // ready once per hand end, however often Next hand (or Enter) is pressed
      if (!S.readySent) { S.readySent = true; send({ type: "ready" }); }
    } }, S.matchEnd ? "Final standings" : "Next hand"));
    return kids;
  }
  // A new hand has begun: the player must see it (their turn and claims have clocks), so
  // the last hand's result makes way; it stays a tap away (Last hand's result).
  function resultMakesWay() {
    S.nextHandAt = 0;
    const body = $("overlay-body");
    if (!$("overlay").hidden && !S.matchEnd && body.querySelector('[data-testid="next-hand"], [data-testid="close-result"]')) {
      $("overlay").hidden = true;
    }
    $("last-hand").hidden = !S.lastHand;
  }
  $("last-hand").addEventListener("click", () => {
    if (S.lastHand) overlay(...resultBox(S.lastHand.h, null, S.lastHand.review, true));
  });
  function scoreTable(names, scores, deltas, testid) {
    const head = el("tr", {}, el("th", {}, "Player"), el("th", { class: "num" }, "This hand"),
      el("th", { class: "num" }, "Total"));
    return el("table", { "data-testid": testid, class: "scores" }, el("thead", {}, head),
      el("tbody", {}, names.map((name, p) => el("tr", { "data-player": p },
        el("td", {}, name),
        el("td", { class: "num" }, (deltas[p] > 0 ? "+" : "") + deltas[p]),
        el("td", { class: "num" }, scores[p])))));
  }
  // After the last hand its result stays up until the player asks for the standings
  function matchEnd(m) {
    S.over = true;
    $("last-hand").hidden = true;
    S.matchEnd = m;
    const next = $("overlay").hidden ? null : $("overlay-body").querySelector('[data-testid="next-hand"]');
    if (next) next.textContent = "Final standings"; else showMatchEnd(m);
    render();
  }
  function showMatchEnd(m) {
    overlay(el("h2", { "data-testid": "match-end" }, "Final standings"),
      el("ol", { "data-testid": "standings" }, m.standings.map((s) => el("li", { "data-player": s.player, value: s.place }, `${s.name}: ${points(s.score)}`))),
      ladderNote(m.ladder),
      m.review ? el("section", { class: "review", "data-testid": "match-review" },
        el("h3", {}, "Your play this match, against Owl"),
        m.review.lines.map((t) => el("p", {}, t))) : null,
      el("p", {}, el("a", { href: m.replay || `/t/${S.tableId}/replay`, "data-testid": "watch-replay" }, "Watch the replay")),
      el("p", {}, el("a", { href: m.record, download: "", "data-testid": "download-record" }, "Download the match record (JSON Lines)")),
      el("p", {}, el("a", { href: "/" }, "Set up another table")));
  }

  // ------------------------------------------------------------------ keyboard
  document.addEventListener("keydown", (ev) => {
    if (ev.target.matches && ev.target.matches("input, select, textarea")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key === "m") { setMute(!S.muted); return; }
    if (!$("overlay").hidden) {
      if (key === "enter" || key === "escape") { const b = $("overlay-body").querySelector("button"); if (b) { ev.preventDefault(); b.click(); } }
      return;
    }
    if ($("table").hidden || S.role !== "player" || !S.view) return;
    const tiles = myTiles(S.view).tiles;
    const find = (type) => legal().filter((a) => a.type === type);
    const press = (type) => {
      const opts = find(type);
      if (opts.length === 1) act(opts[0]);
      else if (opts.length > 1) { const b = document.querySelector(`[data-testid="action-${type}"]`); if (b) b.focus(); }
    };
    switch (key) {
      case "arrowleft": S.cursor = (S.cursor - 1 + tiles.length) % tiles.length; render(); focusCursor(); break;
      case "arrowright": S.cursor = (S.cursor + 1) % tiles.length; render(); focusCursor(); break;
      case "enter":
        if (ev.target.closest && ev.target.closest("#actions")) return;   // the focused button
        pickOrThrow(tiles); break;
      case "w": press("win"); break;
      case "p": press("pong"); break;
      case "c": press("chow"); break;
      case "k": press("kong"); break;
      case "s": press("pass"); break;
      case "h": toggleHints(); break;
      default: return;
    }
    ev.preventDefault();
  });
  $("mute").addEventListener("click", () => setMute(!S.muted));

  // ------------------------------------------------------------------ start
  setMute(S.muted);
  // the result box starts below the bar (app.css): keep its height in --bar-h
  const bar = document.querySelector("header.bar");
  const barHeight = () => document.documentElement.style.setProperty("--bar-h", `${bar.offsetHeight}px`);
  if (bar) { barHeight(); if (window.ResizeObserver) new ResizeObserver(barHeight).observe(bar); }
  // replay.js and ladder.js draw with the same helpers (one tile rendering for the page)
  window.sgmjUI = { el, tileSvg, tilesRow, parseTiles, tileName, api, seatKey, status, WINDS, handResult, scoreTable, points };
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,40})\/?$/);
  const isReplay = /^\/t\/[A-Za-z0-9_-]{1,40}\/replay\/?$/.test(location.pathname);
  if (m) tablePage(m[1]); else if (!isReplay) lobby();   // replay.js takes /t/<id>/replay
  window.sgmj = S;   // for browser tests: the page's state, read-only by convention
})();
