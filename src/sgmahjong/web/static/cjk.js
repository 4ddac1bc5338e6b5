// Chinese names on the learn pages are text, so they need a font with Chinese characters.
// Where the device has none, the browser would draw boxes: leave the names out instead
// (html.no-cjk hides every .zh element and shows a note). The tiles are pictures and need
// no font at all.
"use strict";
(() => {
  // A character the device can draw looks unlike one no font has: compare U+842C (the
  // Characters suit) with a private-use character, which fonts leave empty and the
  // browser draws as a box.
  function pixels(ch) {
    const c = document.createElement("canvas");
    c.width = 40;
    c.height = 40;
    const g = c.getContext("2d", { willReadFrequently: true });
    if (!g) return null;
    g.font = '32px "Noto Sans CJK TC", "PingFang TC", "Microsoft JhengHei", sans-serif';
    g.fillStyle = "#000";
    g.fillText(ch, 2, 34);
    return g.getImageData(0, 0, 40, 40).data.join(",");
  }
  const cjk = pixels("\u842C");
  const none = pixels("\uE000");
  if (cjk !== null && cjk === none) document.documentElement.classList.add("no-cjk");
})();
