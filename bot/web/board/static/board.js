// The live board page: draws the game the page's token opens (a kind of game from Board.kinds), follows it over
// Server-Sent Events and reconnects, lets the board be zoomed, panned and its routes named on hover or tap, and
// turns a finished game's page into its replay. Its token is its own address; every word comes in the game's data.
"use strict";

(() => {
  const { PALETTE, h, s, round1, points, sayer, symbolDefs, badge, botMark, icon, fetchJson } = Board;
  const TTR = PALETTE.ttr;

  // ---------------------------------------------------------------------------------------------- zoom and pan

  /** Zoom (wheel, pinch, buttons) and pan (drag) by moving the SVG's viewBox; a tap without a drag is a tap. */
  class Viewport {
    constructor(svg, onTap) {
      this.svg = svg;
      this.onTap = onTap;
      this.full = null;
      this.box = null;
      this.enabled = false;
      this.pointers = new Map();
      this.moved = 0;
      svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
      svg.addEventListener("pointerdown", (e) => this.down(e));
      svg.addEventListener("pointermove", (e) => this.move(e));
      svg.addEventListener("pointerup", (e) => this.up(e));
      svg.addEventListener("pointercancel", (e) => this.up(e, true));
    }

    /** Show a drawing of this size whole; keep the zoom when only the game moved on. */
    show(width, height, zoomable) {
      const same = this.full && this.full.w === width && this.full.h === height;
      this.full = { x: 0, y: 0, w: width, h: height };
      this.enabled = zoomable;
      if (!same || !zoomable) this.box = { ...this.full };
      this.apply();
    }

    fit() {
      this.box = { ...this.full };
      this.apply();
    }

    apply() {
      const { x, y, w, h: hgt } = this.box;
      this.svg.setAttribute("viewBox", `${round1(x)} ${round1(y)} ${round1(w)} ${round1(hgt)}`);
      this.svg.dataset.zoom = (this.full.w / w).toFixed(2);
    }

    /** The drawing's point under a point of the screen. */
    point(clientX, clientY) {
      const matrix = this.svg.getScreenCTM();
      if (!matrix) return { x: this.box.x + this.box.w / 2, y: this.box.y + this.box.h / 2 };
      const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
      return { x: p.x, y: p.y };
    }

    /** Zoom by `factor` (above 1: closer) keeping the drawing's point (cx, cy) where it is. */
    zoom(factor, cx, cy) {
      if (!this.enabled) return;
      const full = this.full;
      const w = Math.min(full.w, Math.max(full.w / 12, this.box.w / factor));
      const k = w / this.box.w;
      const hgt = this.box.h * k;
      this.box = { x: cx - (cx - this.box.x) * k, y: cy - (cy - this.box.y) * k, w, h: hgt };
      this.clamp();
      this.apply();
    }

    zoomCentre(factor) {
      this.zoom(factor, this.box.x + this.box.w / 2, this.box.y + this.box.h / 2);
    }

    clamp() {
      const { full, box } = this;
      box.x = Math.min(Math.max(box.x, full.x - box.w * 0.25), full.x + full.w - box.w * 0.75);
      box.y = Math.min(Math.max(box.y, full.y - box.h * 0.25), full.y + full.h - box.h * 0.75);
    }

    wheel(e) {
      if (!this.enabled) return;
      e.preventDefault();
      const { x, y } = this.point(e.clientX, e.clientY);
      const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      this.zoom(Math.exp(-delta * 0.002), x, y);
    }

    down(e) {
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 1) this.moved = 0;
      if (this.enabled) this.svg.setPointerCapture?.(e.pointerId);
    }

    move(e) {
      const last = this.pointers.get(e.pointerId);
      if (!last) return;
      const now = { x: e.clientX, y: e.clientY };
      if (this.pointers.size === 2) {
        const [a, b] = [...this.pointers.values()];
        const before = Math.hypot(a.x - b.x, a.y - b.y);
        this.pointers.set(e.pointerId, now);
        const [c, d] = [...this.pointers.values()];
        const after = Math.hypot(c.x - d.x, c.y - d.y);
        const mid = this.point((c.x + d.x) / 2, (c.y + d.y) / 2);
        if (before > 0) this.zoom(after / before, mid.x, mid.y);
        this.moved += 100;
        return;
      }
      this.pointers.set(e.pointerId, now);
      this.moved += Math.hypot(now.x - last.x, now.y - last.y);
      if (!this.enabled || this.moved < 4) return;
      const matrix = this.svg.getScreenCTM();
      if (!matrix) return;
      this.svg.classList.add("dragging");
      this.box.x -= (now.x - last.x) / matrix.a;
      this.box.y -= (now.y - last.y) / matrix.d;
      this.clamp();
      this.apply();
    }

    up(e, cancelled = false) {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.delete(e.pointerId);
      this.svg.classList.remove("dragging");
      if (!cancelled && this.pointers.size === 0 && this.moved < 6) this.onTap(e);
    }
  }

  // ---------------------------------------------------------------------------------------------- the page

  const $ = (id) => document.getElementById(id);
  // The longest wait, in ms, before following a game again after the server refused it or went away.
  const MAX_RETRY = 30000;
  // How long a replay played on shows each move, in ms.
  const PLAY_MS = 1000;
  const base = location.pathname.replace(/\/+$/, "");

  const page = {
    state: null,
    ctx: null,
    frames: null,
    frame: 0,
    replay: null,
    playing: null,
    events: null,
    retry: 1000,
    drawing: Promise.resolve(),
  };

  const viewport = new Viewport($("board"), showTip);

  const narrowScreen = window.matchMedia("(max-width: 700px)");

  /** Everything the kinds draw with: the state, its view, words, names and colours, the map, the screen. */
  function context(state, map) {
    const seats = state.seats || [];
    const say = sayer(state.words || {}, state.game.language);
    return {
      state,
      view: state.view,
      language: state.game.language,
      say,
      name: (seat) => seats[seat]?.name ?? String(seat + 1),
      colour: (seat) => seats[seat]?.colour ?? "#888888",
      /** The bot mark before a bot's name, as the pictures have it (nothing for a person). */
      mark: (seat) => (seats[seat]?.bot ? botMark(say("web.page.bot")) : null),
      map,
      narrow: narrowScreen.matches,
    };
  }

  /** Draw a state (a live one, or a replay's frame) on the whole page. */
  async function draw(state) {
    const kind = Board.kinds[state.game.kind];
    if (!kind) throw new Error(`unknown kind ${state.game.kind}`);
    const ctx = context(state, await kind.prepare(state));
    page.ctx = ctx;
    const svg = $("board");
    svg.replaceChildren(symbolDefs(kind.defs?.()));
    const { width, height } = kind.draw(svg, ctx);
    $("stage").className = kind.stage;
    $("zoom").hidden = !kind.zoomable;
    svg.setAttribute("preserveAspectRatio", kind.stage === "map" ? "xMidYMid meet" : "xMidYMin meet");
    svg.style.setProperty("--aspect", `${width} / ${height}`);
    viewport.show(width, height, kind.zoomable);
    drawSide(kind, ctx);
    document.body.dataset.kind = state.game.kind;
    document.body.dataset.version = state.game.version;
    performance.mark("board-drawn", { detail: { version: state.game.version } });
    hideTip();
  }

  /** Everything beside the board: the title, the banner, the players, the last move, the table, the story, the
   * chart, and the page's own words. */
  function drawSide(kind, ctx) {
    const { say, state } = ctx;
    document.documentElement.lang = ctx.language;
    document.title = state.game.title;
    $("title").textContent = state.game.title;
    for (const node of document.querySelectorAll("[data-word]")) node.textContent = say(node.dataset.word);
    for (const node of document.querySelectorAll("[data-label]")) node.title = node.ariaLabel = say(node.dataset.label);

    const banner = kind.banner(ctx);
    $("banner").hidden = !banner;
    if (banner) {
      $("banner").textContent = banner.text;
      $("banner").className = banner.over ? "over" : "";
    }

    $("players").replaceChildren(
      ...kind.players(ctx).map((p) =>
        h(
          "li",
          {
            class: [p.toPlay && "to-play", p.out && "out"].filter(Boolean).join(" ") || null,
            style: `--seat:${ctx.colour(p.seat)}`,
            title: p.toPlay ? say("web.page.turn", { player: ctx.name(p.seat) }) : null,
          },
          badge(ctx, p.seat),
          h("span", { class: "name" }, ctx.mark(p.seat), ctx.name(p.seat)),
          h("span", { class: p.won ? "score won" : "score", text: p.score }),
          h(
            "span",
            { class: "counts" },
            p.counts.map((count) =>
              h(
                "span",
                { title: count.title },
                count.icon && icon(count.icon),
                count.label,
                h("b", { text: count.value }),
              ),
            ),
          ),
        ),
      ),
    );

    const last = kind.last(ctx);
    $("last").hidden = !last;
    $("last").replaceChildren(...(last || []));

    const table = kind.table(ctx);
    $("table").hidden = !table;
    $("table").replaceChildren(...(table || []));

    const story = $("story");
    story.replaceChildren(...(state.story || []).map((line) => h("li", {}, marked(line, say))));
    story.scrollTop = story.scrollHeight;

    drawChart(ctx);
  }

  /** The score over time: a line per player in their colour, a mark at the frame shown in a replay. */
  /** A line of the story, each 🤖 before a bot's name drawn as the bot mark (the chat's emoji, which a browser
   * without an emoji font shows as a box). */
  function marked(line, say) {
    const mark = () => botMark(say("web.page.bot"));
    return line.split(BOT_EMOJI).flatMap((part, i) => (i ? [mark(), part.replace(/^ /, "")] : [part]));
  }
  const BOT_EMOJI = "\u{1F916}";

  function drawChart(ctx) {
    const rows = (page.replay ? page.replay.scores : ctx.state.scores) || [];
    const box = $("chart-box");
    box.hidden = rows.length < 2;
    if (box.hidden) return;
    const [w, hgt, left, bottom] = [320, 150, 30, 16];
    const top = Math.max(...rows.flat());
    box.hidden = top <= 0;
    if (box.hidden) return;
    const x = (i) => left + ((w - left - 6) * i) / (rows.length - 1);
    const y = (v) => hgt - bottom - ((hgt - bottom - 8) * v) / top;
    const seats = rows[rows.length - 1].length;
    const chart = $("chart");
    const grid = [0, top / 2, top].map((v) => [
      s("line", { x1: left, x2: w - 6, y1: round1(y(v)), y2: round1(y(v)), stroke: TTR.panel_active }),
      s("text", {
        x: left - 4,
        y: round1(y(v)),
        "text-anchor": "end",
        "dominant-baseline": "central",
        "font-size": 10,
        fill: TTR.panel_muted,
        class: "svg-text",
        text: Math.round(v),
      }),
    ]);
    const lines = Array.from({ length: seats }, (_, seat) =>
      s("polyline", {
        points: points(rows.map((row, i) => [x(i), y(row[seat] ?? 0)])),
        fill: "none",
        stroke: ctx.colour(seat),
        "stroke-width": 2.5,
        "stroke-linejoin": "round",
      }),
    );
    const scored = page.frames ? page.frames[page.frame].scores.length - 1 : null;
    const marker =
      scored === null
        ? null
        : s("line", {
            x1: round1(x(scored)),
            x2: round1(x(scored)),
            y1: 4,
            y2: hgt - bottom,
            stroke: TTR.accent,
            "stroke-width": 2,
          });
    chart.replaceChildren(...grid.flat(), ...lines, ...(marker ? [marker] : []));
    chart.onclick = page.frames
      ? (e) => {
          const rect = chart.getBoundingClientRect();
          const point = Math.round(
            ((((e.clientX - rect.left) / rect.width) * w - left) / (w - left - 6)) * (rows.length - 1),
          );
          const found = page.frames.findIndex((frame) => frame.scores.length - 1 >= point);
          stepTo(found < 0 ? page.frames.length - 1 : found);
        }
      : null;
  }

  // ---------------------------------------------------------------------------------------------- names on hover

  /** Name what is under the pointer (a route, a city) beside it; a tap on nothing hides it. */
  function showTip(e) {
    // The board holds the pointer while it is down, so a tap's own target is the board: look under the finger.
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under?.closest("[data-track], [data-city]");
    if (!target || !page.ctx) return hideTip();
    const tip = Board.kinds[page.ctx.state.game.kind].tip(target, page.ctx);
    if (!tip) return hideTip();
    const node = $("tip");
    node.replaceChildren(h("b", { text: tip.title }), ...tip.lines.map((line) => h("span", {}, line)));
    node.hidden = false;
    const stage = $("stage").getBoundingClientRect();
    const x = Math.min(e.clientX - stage.left + 14, stage.width - node.offsetWidth - 6);
    const y =
      e.clientY - stage.top + 16 + node.offsetHeight > stage.height
        ? e.clientY - stage.top - node.offsetHeight - 10
        : e.clientY - stage.top + 16;
    node.style.left = `${Math.max(6, x)}px`;
    node.style.top = `${Math.max(6, y)}px`;
    for (const old of document.querySelectorAll(".hit.hover")) old.classList.remove("hover");
    target.classList.add("hover");
  }

  /** Hide the name shown under the pointer. */
  function hideTip() {
    $("tip").hidden = true;
    for (const old of document.querySelectorAll(".hit.hover")) old.classList.remove("hover");
  }

  $("board").addEventListener("pointermove", (e) => {
    if (e.pointerType === "mouse" && !viewport.svg.classList.contains("dragging")) showTip(e);
  });
  $("board").addEventListener("pointerleave", (e) => {
    if (e.pointerType === "mouse") hideTip();
  });
  for (const button of document.querySelectorAll("[data-zoom]")) {
    button.addEventListener("click", () => {
      const how = button.dataset.zoom;
      if (how === "fit") viewport.fit();
      else viewport.zoomCentre(how === "in" ? 1.6 : 1 / 1.6);
    });
  }

  // ---------------------------------------------------------------------------------------------- live and replay

  /** Say how the page follows its game (`live`, `lost`, or neither once it is over). */
  function setStatus(key, cls) {
    const node = $("status");
    node.className = `status ${cls}`;
    node.textContent = page.ctx ? page.ctx.say(key) : "";
  }

  /** How a finished game's page says it ended. */
  function ended(state) {
    return state.game.status === "abandoned" ? "web.page.abandoned" : "web.page.finished";
  }

  /** Draw a state the server sent, unless it or a newer one is shown already (the stream sends the state again on
   * connecting); draws run one after another. */
  function show(state) {
    page.drawing = page.drawing
      .then(async () => {
        if (page.frames) return;
        if (page.state && state.game.version <= page.state.game.version) return;
        page.state = state;
        await draw(state);
        if (state.game.finished) startReplay(state);
      })
      .catch(fail);
    return page.drawing;
  }

  /** Follow the game: the server sends the state on connecting and after each move; reconnect when it drops. */
  function follow() {
    const events = new EventSource(`${base}/events`);
    page.events = events;
    events.addEventListener("open", () => {
      page.retry = 1000;
      setStatus("web.page.live", "live");
    });
    events.addEventListener("state", (e) => show(JSON.parse(e.data)));
    events.addEventListener("error", () => {
      if (page.frames) return;
      if (events.readyState !== EventSource.CLOSED) {
        setStatus("web.page.reconnecting", "lost");
        return;
      }
      // Refused (too many readers) or gone: try again later, ever more slowly.
      setStatus(page.retry >= MAX_RETRY ? "web.page.offline" : "web.page.reconnecting", "lost");
      setTimeout(() => {
        if (page.events === events && !page.frames) follow();
      }, page.retry);
      page.retry = Math.min(page.retry * 2, MAX_RETRY);
    });
  }

  /** A finished game's page becomes its replay: the table after every move, stepped with the buttons, the arrow
   * keys or the slider, or played on; the story and the score chart go with each step. */
  async function startReplay(state) {
    if (page.replay) return;
    page.events?.close();
    page.events = null;
    setStatus(ended(state), "");
    let replay;
    try {
      replay = await fetchJson(`${base}/replay.json`);
    } catch {
      return;
    }
    if (!replay.frames?.length) return;
    page.replay = replay;
    page.frames = replay.frames.map((frame) => ({
      game: { ...replay.game, version: frame.step },
      seats: replay.seats,
      words: replay.words,
      view: frame.view,
      last: frame.last,
      story: replay.story.slice(0, frame.told),
      scores: replay.scores.slice(0, frame.scored),
    }));
    $("replay").hidden = false;
    $("scrub").max = page.frames.length - 1;
    await stepTo(page.frames.length - 1);
  }

  /** Show the replay's frame `index` (kept within its frames), with its move's number. */
  function stepTo(index) {
    if (!page.frames) return Promise.resolve();
    page.frame = Math.max(0, Math.min(page.frames.length - 1, index));
    const frame = page.frames[page.frame];
    page.drawing = page.drawing
      .then(() => draw(frame))
      .then(() => {
        const say = page.ctx.say;
        $("step").textContent = say("web.page.step", { step: page.frame, steps: page.frames.length - 1 });
        $("scrub").value = page.frame;
        document.body.dataset.frame = page.frame;
        for (const button of document.querySelectorAll("[data-step]")) {
          const back = button.dataset.step === "first" || button.dataset.step === "previous";
          button.disabled = back ? page.frame === 0 : page.frame === page.frames.length - 1;
        }
        setStatus(ended(page.replay), "");
      })
      .catch(fail);
    return page.drawing;
  }

  const STEPS = { first: () => 0, previous: (i) => i - 1, next: (i) => i + 1, last: () => Infinity };

  /** Step the replay by a button's or a key's way (`first`, `previous`, `next`, `last`). */
  function step(how) {
    pause();
    return stepTo(STEPS[how](page.frame));
  }

  /** Play the replay on, a move a second, from the start if it stands at the end. */
  function play() {
    if (page.frame >= page.frames.length - 1) stepTo(0);
    $("play").dataset.label = "web.page.pause";
    $("play").classList.add("playing");
    page.playing = setInterval(() => {
      if (page.frame >= page.frames.length - 1) pause();
      else stepTo(page.frame + 1);
    }, PLAY_MS);
  }

  /** Stop playing the replay on. */
  function pause() {
    clearInterval(page.playing);
    page.playing = null;
    $("play").dataset.label = "web.page.play";
    $("play").classList.remove("playing");
  }

  for (const button of document.querySelectorAll("[data-step]"))
    button.addEventListener("click", () => step(button.dataset.step));
  $("play").addEventListener("click", () => (page.playing ? pause() : play()));
  $("scrub").addEventListener("input", (e) => {
    pause();
    stepTo(Number(e.target.value));
  });
  document.addEventListener("keydown", (e) => {
    if (!page.frames || e.altKey || e.ctrlKey || e.metaKey || e.target.tagName === "INPUT") return;
    const keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[e.key]) {
      e.preventDefault();
      step(keys[e.key]);
    }
  });

  /** A screen turned past the narrow width redraws the tables for it. */
  narrowScreen.addEventListener("change", () => {
    const shown = page.frames ? page.frames[page.frame] : page.state;
    if (shown) page.drawing = page.drawing.then(() => draw(shown)).catch(fail);
  });

  function fail(error) {
    console.error(error);
    if (page.state) return;
    $("layout").replaceChildren(h("p", { class: "error", text: error.status ? `${error.status}` : "…" }));
  }

  async function start() {
    try {
      await show(await fetchJson(`${base}/state.json`));
    } catch (error) {
      fail(error);
      return;
    }
    if (page.state && !page.state.game.finished) follow();
  }

  start();
})();
