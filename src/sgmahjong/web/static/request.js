// Requests that change something, made so that each change is carried out once whatever
// the network does (docs/web.md, "Requests carried out once"): each change the user asks
// for gets one Idempotency-Key, kept through every retry of it; a lost answer is asked for
// again with the same key; a button is busy while its request is on its way, so a second
// tap of it does nothing. Loaded before each page's own script: window.sgmjRequest.
"use strict";
window.sgmjRequest = (() => {
  const RETRIES = 4;          // after a network failure, with waits of 0.5, 1, 2 and 4 s
  const WAIT_MS = 500;

  // A random key (crypto.randomUUID needs https; getRandomValues works on any page).
  function newKey() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const state = { inFlight: 0 };   // requests on their way (read by the browser tests)

  // One change the user asked for: `send` it as often as needed, it is carried out once.
  // After an answer from the server (done or refused) the next change gets a new key.
  function change() {
    let key = newKey();
    return {
      get key() { return key; },
      async send(method, url, { body, token } = {}) {
        const r = await send(method, url, { body, token, key });
        key = newKey();
        return r;
      },
    };
  }

  // fetch, with the key, retried while the network fails or the first copy is still at work
  async function send(method, url, { body, token, key } = {}) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    if (key) headers["Idempotency-Key"] = key;
    const opts = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    state.inFlight++;
    try { return await attempts(url, opts, key); } finally { state.inFlight--; }
  }
  async function attempts(url, opts, key) {
    for (let attempt = 0; ; attempt++) {
      let r;
      try {
        r = await fetch(url, opts);
      } catch (exc) {
        // without a key a retry could make the change twice: only keyed requests retry
        if (!key || attempt >= RETRIES) {
          throw new Error("the server cannot be reached: check the connection and try again");
        }
        await pause(WAIT_MS * 2 ** attempt);
        continue;
      }
      if (r.status === 409 && key && attempt < RETRIES) {
        const data = await r.clone().json().catch(() => ({}));
        if (data.error === "in-progress") { await pause(WAIT_MS * 2 ** attempt); continue; }
      }
      return r;
    }
  }

  // Run `work` for a button (or a form's submit button) unless it is already at work: the
  // button is disabled and marked busy until `work` ends, whatever its outcome.
  async function busy(button, work) {
    if (!button || button.dataset.busy === "1") return undefined;
    button.dataset.busy = "1";
    const was = button.disabled;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      return await work();
    } finally {
      delete button.dataset.busy;
      button.disabled = was;
      button.removeAttribute("aria-busy");
    }
  }

  return { newKey, change, send, busy, get inFlight() { return state.inFlight; } };
})();
