// Music for the table: a quiet loop generated with WebAudio (no audio file is fetched).
// Off until the player turns it on; the choice is kept in this browser (localStorage
// "sgmj.music"). The mute button (M) silences it too.
"use strict";
(() => {
  const button = document.getElementById("music");
  if (!button) return;
  const KEY = "sgmj.music";
  // C major pentatonic over an octave and a half, and a slow bass under it
  const SCALE = [261.63, 293.66, 329.63, 392.0, 440.0, 523.25, 587.33, 659.25];
  const BASS = [130.81, 110.0, 87.31, 98.0];
  const STEP = 60 / 72 / 2;          // quavers at 72 beats a minute
  const M = { on: localStorage.getItem(KEY) === "1", playing: false, notes: 0 };
  let ctx = null, master = null, timer = null, next = 0, step = 0;

  // a fixed melody: a small walk over the scale, the same every time
  const melody = [];
  let seed = 7, pos = 3;
  for (let i = 0; i < 32; i += 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const move = [-2, -1, -1, 0, 1, 1, 2, null][seed % 8];
    if (move === null || i % 8 === 7) { melody.push(null); continue; }
    pos = Math.max(0, Math.min(SCALE.length - 1, pos + move));
    melody.push(SCALE[pos]);
  }

  function tone(freq, at, peak, length, type) {
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.type = type;
    o.frequency.value = freq;
    g.gain.setValueAtTime(0.0001, at);
    g.gain.exponentialRampToValueAtTime(peak, at + 0.04);
    g.gain.exponentialRampToValueAtTime(0.0001, at + length);
    o.connect(g).connect(master);
    o.start(at);
    o.stop(at + length + 0.05);
    M.notes += 1;
  }
  function schedule() {
    const muted = localStorage.getItem("sgmj.muted") === "1";
    while (next < ctx.currentTime + 0.25) {
      if (!muted) {
        const f = melody[step % melody.length];
        if (f) tone(f, next, 0.05, 1.1, "sine");
        if (step % 8 === 0) tone(BASS[(step / 8) % BASS.length], next, 0.04, 3.0, "triangle");
      }
      next += STEP;
      step += 1;
    }
  }
  function start() {
    try {
      ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
      if (!master) { master = ctx.createGain(); master.gain.value = 0.6; master.connect(ctx.destination); }
      if (ctx.state === "suspended") ctx.resume();
    } catch (_) { return; }   // no audio here
    if (timer !== null) return;
    next = ctx.currentTime + 0.05;
    schedule();
    timer = setInterval(schedule, 100);
    M.playing = true;
  }
  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    M.playing = false;
    if (ctx) ctx.suspend();
  }
  function draw() {
    const svg = button.querySelector("svg use");
    if (svg) svg.setAttribute("href", M.on ? "#i-music-on" : "#i-music-off");
    button.setAttribute("aria-pressed", String(M.on));
    button.title = M.on ? "Music on (click to stop)" : "Music off (click to play)";
  }
  function set(on) {
    M.on = on;
    localStorage.setItem(KEY, on ? "1" : "0");
    if (on) start(); else stop();
    draw();
  }
  button.addEventListener("click", () => set(!M.on));
  // a browser starts sound only after a click or a key: music chosen on an earlier visit
  // begins with the first one
  const resume = () => { if (M.on && !M.playing) start(); };
  document.addEventListener("pointerdown", resume, { once: true });
  document.addEventListener("keydown", resume, { once: true });
  draw();
  window.sgmjMusic = M;   // for browser tests
})();
