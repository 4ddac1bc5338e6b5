// What every page draws the same way: elements, the server's tile text, tiles and icons from
// the inlined sprite sheet (<use href="#t-1m">, so no font is needed). Plain JavaScript, no
// build step; loaded before each page's own script, which reads it from window.sgmjDom.
"use strict";
window.sgmjDom = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";

  // el("p", { class: "x", onclick: f }, "text", child): null, undefined and false attributes
  // and children are left out; `text` sets the text; other children become text nodes
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) {
      e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return e;
  }

  // The server's compact tile text ("123m55z") as tile codes (["1m", "2m", "3m", "5z", "5z"]).
  // It trusts the server; typed input is read by the calculator's own, stricter reader.
  function parseTiles(text) {
    const out = [];
    let digits = "";
    for (const ch of text || "") {
      if (ch >= "0" && ch <= "9") digits += ch;
      else { for (const d of digits) out.push(d + ch); digits = ""; }
    }
    return out;
  }

  // A tile's English name, as the sprite sheet's title gives it ("3 Bamboo", "Red Dragon")
  function tileName(t) {
    const title = document.querySelector(`#t-${CSS.escape(t)} title`);
    return title ? title.textContent : t;
  }

  function sprite(cls, viewBox, href) {
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", cls);
    svg.setAttribute("viewBox", viewBox);
    const use = document.createElementNS(SVGNS, "use");
    use.setAttribute("href", href);
    svg.append(use);
    return svg;
  }

  // A tile a screen reader names; null or undefined draws a face-down tile
  function tileSvg(t) {
    const back = t === null || t === undefined;
    const svg = sprite("tile", "0 0 60 80", back ? "#t-back" : `#t-${t}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", back ? "face-down tile" : tileName(t));
    svg.dataset.tile = back ? "back" : t;
    return svg;
  }

  // A tile inside a control that names it already (the control's aria-label)
  function tileFace(t) {
    const svg = sprite("tile", "0 0 60 80", `#t-${t}`);
    svg.setAttribute("aria-hidden", "true");
    return svg;
  }

  // An icon (drawn, not an emoji); the words around it or the button's label name it
  function icon(name) {
    const svg = sprite("icon", "0 0 24 24", `#i-${name}`);
    svg.setAttribute("aria-hidden", "true");
    svg.dataset.icon = name;
    return svg;
  }

  function tilesRow(tiles, cls) {
    return el("div", { class: `tiles ${cls || ""}` }, tiles.map((t) => tileSvg(t)));
  }

  return Object.freeze({ el, parseTiles, tileName, tileSvg, tileFace, icon, tilesRow });
})();
