// The learning links: the welcome note on a first visit (a guided first hand, how to play),
// and the Rules link, which at a table opens that table's own rules in a new tab.
"use strict";
(() => {
  const KEY = "sgmj.welcomed";
  const note = document.getElementById("welcome");
  if (note && localStorage.getItem(KEY) !== "1") {
    note.hidden = false;
    const done = () => { localStorage.setItem(KEY, "1"); };
    for (const a of note.querySelectorAll("a")) a.addEventListener("click", done);
    document.getElementById("welcome-close").addEventListener("click", () => { done(); note.hidden = true; });
  }
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,40})(\/replay)?\/?$/);
  const link = document.getElementById("learn");
  if (m && link) link.href = `/learn?table=${encodeURIComponent(m[1])}`;
})();
