// What every page of the live board draws with: the pictures' colours, small DOM and SVG makers, the bot's word
// templates, train cards and their colour symbols, players' badges. Kinds of games (ttr.js, cardgame.js, dice.js)
// add themselves to `Board.kinds`; board.js runs the page.
"use strict";

window.Board = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";

  // The pictures' colours for what is drawn beside a map or without one (render/ttr/palette.py, render/ttr/cards.py,
  // render/cardgame/pieces.py, render/dice.py, render/dice_faces.py): the cards, the panel, the card game and the dice
  // game have no map to bring them (a Ticket to Ride map brings its own: bot/web/board/maps.py), and the page has no
  // build step to read them from Python, so tests/web/test_page_palette.py holds this copy equal to them.
  const PALETTE = {
    card: {
      purple: "#9a499f",
      white: "#f7f7f2",
      blue: "#3e66e8",
      yellow: "#ffd514",
      orange: "#e18823",
      black: "#2c2c30",
      red: "#bf1906",
      green: "#0e974b",
      gray: "#acaca8",
      locomotive: "#787878",
    },
    symbol: {
      purple: "diamond",
      white: "ring",
      blue: "square",
      yellow: "star",
      orange: "triangle",
      black: "disk",
      red: "heart",
      green: "plus",
      gray: "",
      locomotive: "wheel",
    },
    stripes: ["#d6342e", "#ef8726", "#f4ce2e", "#389c48", "#2e6ece", "#9252b0"],
    ttr: {
      dark_ink: "#1c1c20",
      light_ink: "#ffffff",
      banner: "#ce2c24",
      panel_bg: "#232936",
      panel_card: "#31394a",
      panel_active: "#46526c",
      panel_text: "#f0f2f6",
      panel_muted: "#a8b2c4",
      accent: "#ffcc40",
      card_back: "#363e54",
      card_back_ink: "#a8b2c4",
    },
    cardgame: {
      back: "#781e2c",
      back_trim: "#e8be5c",
      ticket_back: "#e2d6ba",
      ticket_trim: "#967a46",
      bonus_fill: "#fff0c4",
      bonus_edge: "#c49634",
      card_rim: "#d6dce8",
    },
    dice: {
      paper: "#f4efe6",
      panel: "#fffdf8",
      edge: "#d6cec0",
      shadow: "#ded6c8",
      muted: "#625a50",
      faint: "#beb7aa",
      faded_ink: "#928a7e",
      accent: "#c43e30",
      gold: "#e8b634",
      ink: "#222226",
      wheel: "#34343a",
      window: "#ece8d6",
      body: { E: "#305296", C: "#5c5c62", T: "#aab4be", H: "#428a54", B: "#9c5e34", K: "#cc3a2e" },
    },
  }; // end of PALETTE
  const TTR = PALETTE.ttr;

  // ---------------------------------------------------------------------------------------------- small helpers

  /** An HTML element with attributes (`text` sets its text) and children. */
  function h(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children.flat(Infinity).filter((child) => child !== null && child !== undefined));
    return node;
  }

  /** An SVG element with attributes (`text` sets its text) and children. */
  function s(tag, attrs = {}, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value);
    }
    node.append(...children.flat(Infinity).filter((child) => child !== null && child !== undefined));
    return node;
  }

  const round1 = (value) => Math.round(value * 10) / 10;
  const points = (list) => list.map(([x, y]) => `${round1(x)},${round1(y)}`).join(" ");

  function rgb(hex) {
    return [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  }

  function toHex(values) {
    return "#" + values.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  }

  /** Dark or white ink, whichever reads better on `fill` (render/ttr/palette.py's ink_on). */
  function inkOn(fill) {
    const [r, g, b] = rgb(fill);
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? TTR.dark_ink : TTR.light_ink;
  }

  // ---------------------------------------------------------------------------------------------- words

  /** Fill a template as the bot does (bot/i18n): `{name}` and plural choices `{count:one=# card|other=# cards}`. */
  function fill(template, params, plurals) {
    return template.replace(/\{(\w+)(?::([^{}]*))?\}/g, (whole, name, spec) => {
      if (!(name in params)) return whole;
      const value = params[name];
      if (!spec || !spec.includes("=")) return String(value);
      const forms = {};
      for (const part of spec.split("|")) {
        const cut = part.indexOf("=");
        if (cut > 0) forms[part.slice(0, cut)] = part.slice(cut + 1);
      }
      const number = Number(String(value).replace("−", "-"));
      const category = Number.isFinite(number) ? plurals.select(number) : "other";
      return (forms[category] ?? forms.other ?? "#").replaceAll("#", String(value));
    });
  }

  /** The page's `say(key, params)` in the game's language; an unknown key shows as itself. */
  function sayer(words, language) {
    const plurals = new Intl.PluralRules(language);
    return (key, params = {}) => (key in words ? fill(words[key], params, plurals) : key);
  }

  // ---------------------------------------------------------------------------------------------- shared pieces

  /** The colour symbols of render/ttr/symbols.py, drawn once in a unit square (currentColor) and reused by
   * every card on the page, and any pieces a kind adds. */
  function symbolDefs(...more) {
    const star = [];
    for (let k = 0; k < 10; k++) {
      const r = k % 2 === 0 ? 0.55 : 0.225;
      const a = -Math.PI / 2 + (k * Math.PI) / 5;
      star.push([Math.cos(a) * r, Math.sin(a) * r]);
    }
    const spokes = [0, 1, 2, 3].map((k) => {
      const a = Math.PI / 4 + (k * Math.PI) / 2;
      return s("line", { x1: 0, y1: 0, x2: round1(Math.cos(a) * 50) / 100, y2: round1(Math.sin(a) * 50) / 100 });
    });
    const paint = { fill: "currentColor" };
    const line = { fill: "none", stroke: "currentColor", "stroke-width": 0.16 };
    return s(
      "defs",
      {},
      s("path", { id: "sym-diamond", d: "M0 -0.5L0.4 0L0 0.5L-0.4 0Z", ...paint }),
      s("circle", { id: "sym-ring", r: 0.42, ...line, "stroke-width": 0.2 }),
      s("rect", { id: "sym-square", x: -0.41, y: -0.41, width: 0.82, height: 0.82, ...paint }),
      s("polygon", { id: "sym-star", points: points(star), ...paint }),
      s("path", { id: "sym-triangle", d: "M0 -0.5L0.5 0.4L-0.5 0.4Z", ...paint }),
      s("circle", { id: "sym-disk", r: 0.425, ...paint }),
      s(
        "g",
        { id: "sym-heart", ...paint },
        s("circle", { cx: -0.26, cy: -0.165, r: 0.26 }),
        s("circle", { cx: 0.26, cy: -0.165, r: 0.26 }),
        s("path", { d: "M-0.5 -0.1L0.5 -0.1L0 0.5Z" }),
      ),
      s("path", { id: "sym-plus", d: "M-0.5 -0.18H0.5V0.18H-0.5ZM-0.18 -0.5H0.18V0.5H-0.18Z", ...paint }),
      s(
        "g",
        { id: "sym-wheel", stroke: "currentColor", "stroke-width": 0.12 },
        s("circle", { r: 0.44, fill: "none", "stroke-width": 0.16 }),
        spokes,
        s("circle", { r: 0.15, fill: "currentColor", stroke: "none" }),
      ),
      more,
    );
  }

  /** A colour symbol `size` across, upright, centred on (x, y). */
  function symbol(name, x, y, size, ink) {
    if (!name) return null;
    return s("use", {
      href: `#sym-${name}`,
      transform: `translate(${round1(x)} ${round1(y)}) scale(${size})`,
      color: ink,
    });
  }

  /** A train card (render/ttr/cards.py): its colour and symbol, a locomotive's rainbow and wheel. */
  function card(colour, x, y, w, hgt, { rim = TTR.dark_ink, ring = null } = {}) {
    const radius = Math.min(w, hgt) * 0.14;
    const parts = [];
    if (ring) {
      parts.push(s("rect", { x: x - 4, y: y - 4, width: w + 8, height: hgt + 8, rx: radius + 3, fill: ring }));
    }
    if (colour === "locomotive") {
      const band = hgt / PALETTE.stripes.length;
      const clip = `card-clip-${++cardClips}`;
      parts.push(
        s("clipPath", { id: clip }, s("rect", { x, y, width: w, height: hgt, rx: radius })),
        s(
          "g",
          { "clip-path": `url(#${clip})` },
          PALETTE.stripes.map((stripe, k) =>
            s("rect", { x, y: round1(y + k * band), width: w, height: round1(band + 0.6), fill: stripe }),
          ),
        ),
        s("circle", { cx: x + w / 2, cy: y + hgt / 2, r: Math.min(w, hgt) * 0.36, fill: "#ffffff" }),
        symbol("wheel", x + w / 2, y + hgt / 2, Math.min(w, hgt) * 0.54, TTR.dark_ink),
      );
    } else {
      const fillColour = PALETTE.card[colour] || PALETTE.card.gray;
      parts.push(
        s("rect", { x, y, width: w, height: hgt, rx: radius, fill: fillColour }),
        symbol(PALETTE.symbol[colour], x + w / 2, y + hgt / 2, Math.min(w, hgt) * 0.5, inkOn(fillColour)),
      );
    }
    parts.push(
      s("rect", {
        x,
        y,
        width: w,
        height: hgt,
        rx: radius,
        fill: "none",
        stroke: rim,
        "stroke-width": Math.max(1, Math.min(w, hgt) / 24),
      }),
    );
    return s("g", { class: "card", "data-colour": colour }, parts);
  }
  let cardClips = 0;

  /** The back of a train card (a blind draw): dark, with a pale wheel (render/ttr/cards.py). */
  function cardBack(x, y, w, hgt) {
    return s(
      "g",
      {},
      s("rect", {
        x,
        y,
        width: w,
        height: hgt,
        rx: Math.min(w, hgt) * 0.28,
        fill: TTR.card_back,
        stroke: TTR.card_back_ink,
        "stroke-width": Math.max(1, w / 12),
      }),
      symbol("wheel", x + w / 2, y + hgt / 2, Math.min(w, hgt) * 0.5, TTR.card_back_ink),
    );
  }

  /** A small card for the page's text (last move, market): an inline SVG of its own. */
  function chip(colour, blind = false) {
    const svg = s("svg", { class: "chip", viewBox: "-2 -2 26 35", "aria-hidden": "true" });
    svg.append(blind ? cardBack(0, 0, 22, 31) : card(colour, 0, 0, 22, 31));
    return svg;
  }

  /** A player's round badge with their number, in their colour. */
  function badge(ctx, seat) {
    const colour = ctx.colour(seat);
    return h("span", { class: "badge", style: `background:${colour};color:${inkOn(colour)}`, text: seat + 1 });
  }

  /** The bot mark (render/glyphs.py's draw_bot_mark, drawn where the pictures draw it, as an emoji may not show): a
   * robot's head in the text's colour, its eyes and mouth left open; `label` names it on hover and to a reader. */
  function botMark(label) {
    const paint = { fill: "currentColor" };
    return s(
      "svg",
      { class: "bot-mark", viewBox: "-0.5 -0.5 1 1", role: "img", "aria-label": label },
      s("title", { text: label }),
      s("rect", { x: -0.04, y: -0.4, width: 0.08, height: 0.21, ...paint }),
      s("circle", { cx: 0, cy: -0.4, r: 0.1, ...paint }),
      s("rect", { x: -0.48, y: 0, width: 0.11, height: 0.26, ...paint }),
      s("rect", { x: 0.37, y: 0, width: 0.11, height: 0.26, ...paint }),
      s("path", { d: BOT_HEAD, "fill-rule": "evenodd", ...paint }),
    );
  }
  const BOT_HEAD = [
    "M-0.26 -0.2H0.26A0.12 0.12 0 0 1 0.38 -0.08V0.34A0.12 0.12 0 0 1 0.26 0.46H-0.26",
    "A0.12 0.12 0 0 1 -0.38 0.34V-0.08A0.12 0.12 0 0 1 -0.26 -0.2Z",
    "M-0.245 0.064A0.085 0.085 0 1 0 -0.075 0.064A0.085 0.085 0 1 0 -0.245 0.064Z",
    "M0.075 0.064A0.085 0.085 0 1 0 0.245 0.064A0.085 0.085 0 1 0 0.075 0.064Z",
    "M-0.17 0.254H0.17V0.324H-0.17Z",
  ].join("");

  /** A small icon for a count (render/ttr/symbols.py's icons), in the text's colour: `cars`, `cards`, `tickets`,
   * `stations`, `stack`, `star` (points). */
  function icon(name) {
    const paint = { fill: "currentColor" };
    const shapes = {
      cars: [
        s("rect", { x: 1, y: 4, width: 22, height: 10, rx: 2, ...paint }),
        s("circle", { cx: 7, cy: 17, r: 3, ...paint }),
        s("circle", { cx: 17, cy: 17, r: 3, ...paint }),
      ],
      cards: [
        s("rect", {
          x: 2,
          y: 3,
          width: 12,
          height: 17,
          rx: 2,
          fill: "none",
          stroke: "currentColor",
          "stroke-width": 2,
        }),
        s("rect", { x: 9, y: 1, width: 12, height: 17, rx: 2, ...paint }),
      ],
      tickets: [s("path", { d: "M2 6H22V9A3 3 0 0 0 22 15V18H2V15A3 3 0 0 0 2 9Z", ...paint })],
      stations: [s("path", { d: "M3 10L12 2L21 10V21H3Z", ...paint })],
      star: [star(12, 11.5, 23, "currentColor")],
      stack: [
        s("rect", {
          x: 6,
          y: 1,
          width: 13,
          height: 17,
          rx: 2,
          fill: "none",
          stroke: "currentColor",
          "stroke-width": 2,
        }),
        s("rect", { x: 3, y: 4, width: 13, height: 17, rx: 2, ...paint }),
      ],
    };
    return s("svg", { class: "icon", viewBox: "0 0 24 22", "aria-hidden": "true" }, shapes[name]);
  }

  /** A five-pointed star, one point up, `size` across. */
  function star(cx, cy, size, fillColour) {
    const corners = [];
    for (let k = 0; k < 10; k++) {
      const r = k % 2 === 0 ? size / 2 : size / 4.6;
      const a = -Math.PI / 2 + (k * Math.PI) / 5;
      corners.push([cx + Math.cos(a) * r, cy + Math.sin(a) * r]);
    }
    return s("polygon", { points: points(corners), fill: fillColour });
  }

  const measuring = document.createElement("canvas").getContext("2d");

  /** How wide `text` is in the page's face at `size` pixels. */
  function textWidth(text, size, bold = false) {
    measuring.font = `${bold ? "bold " : ""}${size}px "DejaVu Sans", sans-serif`;
    return measuring.measureText(String(text)).width;
  }

  /** `text` and a font size, at most `size` and at least `smallest`, at which it fits `width` pixels; cut with an
   * ellipsis when even the smallest is too wide (render/ttr/text.py's fitted). */
  function fitted(text, size, width, { bold = false, smallest = 11 } = {}) {
    for (let at = size; at >= smallest; at--) if (textWidth(text, at, bold) <= width) return [String(text), at];
    let cut = String(text);
    while (cut && textWidth(`${cut}…`, smallest, bold) > width) cut = cut.slice(0, -1);
    return [`${cut.trimEnd()}…`, smallest];
  }

  /** JSON from the server; an error that says its HTTP status when refused. */
  async function fetchJson(url) {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-cache" });
    if (!response.ok) {
      const error = new Error(`${response.status} ${url}`);
      error.status = response.status;
      throw error;
    }
    return response.json();
  }

  return {
    PALETTE,
    kinds: {},
    h,
    s,
    round1,
    points,
    rgb,
    toHex,
    inkOn,
    sayer,
    symbolDefs,
    symbol,
    card,
    cardBack,
    chip,
    badge,
    botMark,
    icon,
    star,
    textWidth,
    fitted,
    fetchJson,
  };
})();
