// «Поезд», the dice game, as its pictures draw it (render/dice.py): the turn in play (the dice rolled, the train on
// its rails, what it scores now) or the turn just played, above the score table with each player's progress to the
// target and last turns.
"use strict";

(() => {
  const { PALETTE, h, s, round1, points, badge, star, textWidth, fitted } = Board;
  const DICE = PALETTE.dice;

  const FACE_ORDER = ["E", "C", "T", "H", "B", "K"];
  const CARGO = { T: 4, H: 3, B: 2 };
  const DIE = 92;
  const CAR = 124;

  /** The six car pictograms (render/dice_faces.py) on their 100 × 64 grid, drawn once. */
  function diceCarDefs() {
    const ink = DICE.ink;
    const pen = { stroke: ink, "stroke-width": 2.2 };
    const rect = (x0, y0, x1, y1, fillColour, r = 0) =>
      s("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: r, fill: fillColour, ...pen });
    const poly = (list, fillColour) => s("polygon", { points: points(list), fill: fillColour, ...pen });
    const circle = (cx, cy, r, fillColour) => s("circle", { cx, cy, r, fill: fillColour, ...pen });
    const stroke = (list, width = 1.6) =>
      s("polyline", { points: points(list), fill: "none", stroke: ink, "stroke-width": width });
    const wheel = (x, r = 6.5) => [
      circle(x, 64 - r - 0.5, r, DICE.wheel),
      circle(x, 64 - r - 0.5, r * 0.3, DICE.window),
    ];
    const underframe = (x0 = 8, x1 = 92) => [
      rect(x0, 46, x1, 51, ink),
      ...[x0 + 12, x0 + 25, x1 - 25, x1 - 12].map((x) => wheel(x)),
    ];
    const body = PALETTE.dice.body;
    const cars = {
      E: [
        poly(
          [
            [1, 58],
            [12, 44],
            [16, 58],
          ],
          ink,
        ),
        rect(8, 43, 94, 50, ink),
        poly(
          [
            [20, 22],
            [32, 22],
            [34, 8],
            [18, 8],
          ],
          ink,
        ),
        rect(15, 4, 37, 9, ink),
        rect(12, 20, 72, 45, body.E, 9),
        rect(42, 13, 54, 22, body.E, 4),
        rect(68, 8, 94, 45, body.E),
        rect(64, 3, 98, 9, ink),
        rect(74, 14, 88, 26, DICE.window),
        ...[
          [20, 6.5],
          [40, 9.5],
          [62, 9.5],
          [85, 6.5],
        ].map(([x, r]) => wheel(x, r)),
        stroke(
          [
            [40, 54],
            [62, 54],
          ],
          2.4,
        ),
      ],
      C: [
        ...[
          [20, 11],
          [36, 14],
          [52, 12],
          [67, 14],
          [81, 10],
        ].map(([x, r]) => circle(x, 30, r, ink)),
        rect(8, 28, 92, 47, body.C),
        stroke([
          [8, 37],
          [92, 37],
        ]),
        ...underframe(),
      ],
      T: [
        rect(44, 8, 56, 18, body.T, 2),
        rect(40, 5, 60, 9, ink),
        rect(4, 16, 96, 46, body.T, 15),
        stroke([
          [28, 17],
          [28, 45],
        ]),
        stroke([
          [72, 17],
          [72, 45],
        ]),
        ...underframe(),
      ],
      H: [
        poly(
          [
            [10, 16],
            [28, 7],
            [50, 4],
            [72, 7],
            [90, 16],
          ],
          "#d6b268",
        ),
        poly(
          [
            [26, 42],
            [40, 42],
            [37, 50],
            [29, 50],
          ],
          body.H,
        ),
        poly(
          [
            [60, 42],
            [74, 42],
            [71, 50],
            [63, 50],
          ],
          body.H,
        ),
        poly(
          [
            [4, 14],
            [96, 14],
            [80, 43],
            [20, 43],
          ],
          body.H,
        ),
        ...[32, 50, 68].map((x) =>
          stroke([
            [x, 15],
            [x, 42],
          ]),
        ),
        ...underframe(10, 90),
      ],
      B: [
        rect(8, 6, 92, 47, body.B),
        rect(5, 2, 95, 7, ink),
        rect(38, 11, 62, 45, body.B),
        stroke([
          [38, 11],
          [62, 45],
        ]),
        stroke([
          [62, 11],
          [38, 45],
        ]),
        ...underframe(),
      ],
      K: [
        rect(38, 6, 62, 22, body.K),
        rect(35, 3, 65, 7, ink),
        rect(44, 10, 56, 18, DICE.window),
        rect(14, 21, 86, 47, body.K),
        rect(10, 18, 90, 22, ink),
        rect(21, 27, 31, 37, DICE.window),
        rect(69, 27, 79, 37, DICE.window),
        stroke([
          [4, 30],
          [4, 47],
        ]),
        stroke([
          [96, 30],
          [96, 47],
        ]),
        stroke([
          [4, 30],
          [14, 30],
        ]),
        stroke([
          [86, 30],
          [96, 30],
        ]),
        ...underframe(),
      ],
    };
    return Object.entries(cars).map(([face, list]) => s("g", { id: `car-${face}` }, list));
  }

  /** A car pictogram `width` wide with its top-left corner at (x, y); faded for a die that cannot join. */
  function diceCar(face, x, y, width, fadedOut = false) {
    return s("use", {
      href: `#car-${face}`,
      transform: `translate(${round1(x)} ${round1(y)}) scale(${width / 100})`,
      opacity: fadedOut ? 0.45 : null,
    });
  }

  function diceText(
    x,
    y,
    text,
    { size = 20, fill = DICE.ink, anchor = "start", bold = false, baseline = "central" } = {},
  ) {
    return s("text", {
      x,
      y,
      "font-size": size,
      fill,
      "text-anchor": anchor,
      "dominant-baseline": baseline,
      "font-weight": bold ? "bold" : null,
      class: "svg-text",
      text,
    });
  }

  /** How a train's score adds up, in numbers (render/dice.py's _how): `2 × (4 + 3 + 1)`. */
  function scoreHow(say, train, score) {
    if (!score.complete) return say("dice.picture.incomplete");
    if (score.bonus) return say("dice.picture.bonus");
    const parts = (score.banked ? [String(score.banked)] : []).concat(
      train.filter((f) => f in CARGO).map((f) => String(CARGO[f])),
    );
    if (score.caboose) return `2 × (${[...parts, "1"].join(" + ")})`;
    return parts.length > 1 ? parts.join(" + ") : "";
  }

  /** How a score is made, shrunk to fit its card (render/dice.py's _fitting_size and _fit). */
  function fittedNote(note, width, anchor) {
    const [text, size] = fitted(note, 22, width, { bold: true, smallest: 14 });
    return [text, { size, bold: true, anchor }];
  }

  /** What a finished turn's train scored, in the shape of a train's score (rules/dice/train.py). */
  function recordScore(record) {
    return {
      complete: record.outcome !== "incomplete",
      bonus: record.outcome === "bonus",
      banked: record.banked,
      caboose: record.train.includes("K"),
    };
  }

  const OUTCOME_WORD = { scored: "score", bonus: "bonus", incomplete: "incomplete", crashed: "crashed" };

  // Where things go on a wide screen (the picture's own places) and on a phone (the score under the dice, smaller
  // cars, fewer past turns), so that a phone shows the table larger.
  const WIDE = {
    width: 900,
    dieGap: 12,
    car: CAR,
    turnHeight: 400,
    scoreBelow: false,
    bar: [74, 360],
    chipsX: 400,
    chips: 6,
  };
  const NARROW = {
    width: 640,
    dieGap: 8,
    car: 92,
    turnHeight: 430,
    scoreBelow: true,
    bar: [74, 260],
    chipsX: 290,
    chips: 4,
  };

  /** What the turn card shows: the turn in play, or the last one played. */
  function turnShown(ctx) {
    const { view, say } = ctx;
    const turn = view.turn;
    if (turn) {
      return {
        seat: turn.seat,
        showing: turn.showing,
        train: turn.train,
        addable: new Set((view.legal || []).flatMap((action) => action.faces || [])),
        slots: turn.showing.length,
        status: turn.freight
          ? say("dice.picture.freight_roll")
          : say("dice.picture.roll", { roll: turn.rolls, max: turn.max_rolls }),
        alert: false,
        points: turn.score.points,
        note: scoreHow(say, turn.train, turn.score),
        title: say("dice.picture.score_so_far"),
        pips: turn.freight ? null : [turn.rolls, turn.max_rolls],
        banked: turn.banked,
      };
    }
    const record = view.previous;
    const status = say(`dice.picture.${OUTCOME_WORD[record.outcome] ?? "score"}`);
    return {
      seat: record.seat,
      showing: record.showing,
      train: record.train,
      addable: new Set(record.showing),
      slots: 0,
      status,
      alert: record.outcome === "crashed" || record.outcome === "bonus",
      points: record.points,
      note: record.outcome === "crashed" ? status : scoreHow(say, record.train, recordScore(record)),
      title: say("dice.picture.score"),
      pips: null,
      banked: 0,
    };
  }

  /** The turn card (render/dice.py's _draw_table): who and how far, the dice rolled, what the train scores, the
   * train on its rails with a dashed slot for each die still out. */
  function turnCard(ctx, shown, place) {
    const { say } = ctx;
    const { width } = place;
    const [name] = fitted(ctx.name(shown.seat), 28, 300, { bold: true, smallest: 28 });
    const parts = [
      diceText(24, 32, name, { size: 28, bold: true }),
      diceText(24 + textWidth(name, 28, true) + 16, 32, shown.status, {
        size: 22,
        fill: shown.alert ? DICE.accent : DICE.muted,
        bold: shown.alert,
      }),
      diceText(24, 62, say("dice.picture.table"), { fill: DICE.muted, baseline: "hanging" }),
    ];
    if (shown.pips) {
      const [used, total] = shown.pips;
      for (let k = 0; k < total; k++) {
        const x = width - 24 - total * 28 + k * 28;
        parts.push(
          s("rect", {
            x,
            y: 22,
            width: 20,
            height: 20,
            rx: 5,
            fill: k < used ? DICE.ink : DICE.panel,
            stroke: DICE.ink,
            "stroke-width": 2,
          }),
        );
      }
      parts.push(diceText(width - 34 - total * 28, 32, say("dice.picture.rolls"), { fill: DICE.muted, anchor: "end" }));
    } else if (shown.banked) {
      parts.push(
        diceText(width - 24, 32, say("dice.picture.bank", { banked: shown.banked }), { anchor: "end", bold: true }),
      );
    }
    const panelRight = 16 + 6 * DIE + 5 * place.dieGap + 20;
    parts.push(s("rect", { x: 16, y: 88, width: panelRight - 16, height: DIE + 26, rx: 14, fill: "#e9e2d5" }));
    const showing = [...shown.showing].sort((a, b) => FACE_ORDER.indexOf(a) - FACE_ORDER.indexOf(b));
    if (!showing.length) {
      parts.push(
        diceText((16 + panelRight) / 2, 88 + (DIE + 26) / 2, say("dice.picture.all_in_train"), {
          size: 22,
          fill: DICE.muted,
          anchor: "middle",
        }),
      );
    }
    showing.forEach((face, k) => parts.push(die(face, 26 + k * (DIE + place.dieGap), 98, shown.addable.has(face))));
    parts.push(...scoreCard(shown, place, panelRight));
    parts.push(
      diceText(24, place.scoreBelow ? 312 : 232, say("dice.picture.train"), { fill: DICE.muted, baseline: "hanging" }),
    );
    parts.push(...rails(shown, place));
    return parts;
  }

  /** One die: its car and its points; a die that cannot join the train now is faded. */
  function die(face, x, y, ok) {
    const value = face === "K" ? "×2" : CARGO[face];
    return [
      s("rect", { x: x + 3, y: y + 4, width: DIE, height: DIE, rx: 16, fill: DICE.shadow }),
      s("rect", {
        x,
        y,
        width: DIE,
        height: DIE,
        rx: 16,
        fill: ok ? DICE.panel : "#eee9e0",
        stroke: ok ? DICE.ink : DICE.faint,
        "stroke-width": ok ? 3 : 2,
      }),
      diceCar(face, x + 6, y + DIE - 61, 80, !ok),
      value &&
        diceText(x + DIE - 9, y + 18, value, {
          size: 24,
          bold: true,
          anchor: "end",
          fill: ok ? DICE.ink : DICE.faded_ink,
        }),
    ];
  }

  /** What the train scores and how: beside the dice on a wide screen, under them on a phone. */
  function scoreCard(shown, place, panelRight) {
    const card = (box) =>
      s("rect", {
        x: box[0],
        y: box[1],
        width: box[2] - box[0],
        height: box[3] - box[1],
        rx: 14,
        fill: DICE.panel,
        stroke: DICE.edge,
        "stroke-width": 2,
      });
    if (place.scoreBelow) {
      const box = [16, 220, place.width - 16, 296];
      const middle = (box[1] + box[3]) / 2;
      return [
        card(box),
        diceText(32, middle, shown.title, { fill: DICE.muted }),
        diceText(place.width / 2, middle, shown.points, { size: 52, bold: true, anchor: "middle" }),
        shown.note && diceText(box[2] - 16, middle, ...fittedNote(shown.note, place.width / 2 - 60, "end")),
      ];
    }
    const box = [panelRight + 18, 66, place.width - 16, 88 + DIE + 26];
    const centre = (box[0] + box[2]) / 2;
    return [
      card(box),
      diceText(centre, box[1] + 24, shown.title, { fill: DICE.muted, anchor: "middle" }),
      diceText(centre, box[1] + (shown.note ? 74 : 84), shown.points, { size: 60, bold: true, anchor: "middle" }),
      shown.note && diceText(centre, box[3] - 24, ...fittedNote(shown.note, box[2] - box[0] - 16, "middle")),
    ];
  }

  /** The train on its rails, locomotive(s) at the front, and a dashed slot for each die still out. */
  function rails(shown, place) {
    const { width, car } = place;
    const rail = place.turnHeight - 26;
    const carH = (car * 64) / 100;
    const parts = [];
    for (let x = 14; x < width - 14; x += 22)
      parts.push(s("rect", { x, y: rail + 2, width: 12, height: 7, fill: "#96826e" }));
    parts.push(s("rect", { x: 10, y: rail - 1, width: width - 20, height: 4, fill: "#5a544e" }));
    let x = 26;
    shown.train.forEach((face, k) => {
      if (k) parts.push(s("rect", { x: x - 14, y: rail - 20, width: 16, height: 4, fill: DICE.ink }));
      parts.push(diceCar(face, x, rail - carH, car));
      x += car + 12;
    });
    for (let k = 0; k < shown.slots; k++) {
      parts.push(
        s("rect", {
          x: x + 4,
          y: rail - carH + 6,
          width: car - 8,
          height: carH - 10,
          fill: "none",
          stroke: DICE.faint,
          "stroke-width": 2,
          "stroke-dasharray": "7 7",
        }),
      );
      x += car + 12;
    }
    return parts;
  }

  Board.kinds.dice = {
    stage: "paper",
    zoomable: false,
    defs: diceCarDefs,

    prepare: () => Promise.resolve(null),

    /** The turn in play (or the one just played) above the score table (render/dice.py's replay_frame). */
    draw(svg, ctx) {
      const place = ctx.narrow ? NARROW : WIDE;
      const { view } = ctx;
      const turnHeight = view.turn || view.previous ? place.turnHeight : 0;
      const height = turnHeight + 112 + 64 * view.players.length + 18;
      svg.append(
        s(
          "g",
          {},
          s("rect", { width: place.width, height, fill: DICE.paper }),
          turnHeight ? turnCard(ctx, turnShown(ctx), place) : [],
          diceScores(ctx, turnHeight, place),
        ),
      );
      return { width: place.width, height };
    },

    tip: () => null,
    banner: () => null,

    players(ctx) {
      const { view, say } = ctx;
      const elimination = view.options.mode === "elimination";
      return view.players.map((p) => ({
        seat: p.seat,
        score: p.standing,
        won: view.winners.includes(p.seat),
        out: p.eliminated,
        toPlay: view.turn?.seat === p.seat,
        counts: [
          elimination
            ? { label: say("dice.picture.total"), value: p.total }
            : { label: say("dice.picture.best"), value: p.best },
        ],
      }));
    },

    last(ctx) {
      const { view, say } = ctx;
      const record = view.previous;
      if (!record) return null;
      const word = say(`dice.picture.${OUTCOME_WORD[record.outcome] ?? "score"}`);
      return [
        badge(ctx, record.seat),
        h("span", { class: "who" }, ctx.mark(record.seat), ctx.name(record.seat)),
        h("span", { text: word }),
        h("span", { class: "gain", text: `+${record.points}` }),
      ];
    },

    table: () => null,
  };

  /** The score table (render/dice.py's render_scores): players in seat order, progress to the target, last turns,
   * totals, the leader's or winners' marks. */
  function diceScores(ctx, top, place) {
    const { view, say } = ctx;
    const { width, bar, chipsX } = place;
    const elimination = view.options.mode === "elimination";
    const race = !elimination;
    const parts = [diceText(24, top + 30, say("dice.picture.scores"), { size: 30, bold: true })];
    const details = [say("dice.picture.round", { round: view.round })];
    if (!elimination) details.push(say("dice.picture.target", { target: view.options.target }));
    else if (view.bar !== null) details.push(say("dice.picture.bar", { bar: view.bar }));
    parts.push(diceText(24, top + 66, details.join(" · "), { fill: DICE.muted }));
    const chipWord = view.over
      ? "game_over"
      : view.tie_break.length
        ? "tie_break"
        : view.last_round
          ? "last_round"
          : null;
    if (chipWord) {
      parts.push(
        diceText(width - 24, top + 32, say(`dice.picture.${chipWord}`), {
          anchor: "end",
          bold: true,
          fill: view.over ? DICE.ink : DICE.accent,
        }),
      );
    }
    const head = top + 112 - 8;
    parts.push(
      diceText(74, head, say("dice.picture.player"), { fill: DICE.muted, baseline: "auto" }),
      diceText(chipsX, head, say("dice.picture.last_turns"), { fill: DICE.muted, baseline: "auto" }),
      diceText(width - 24, head, say(elimination ? "dice.picture.best" : "dice.picture.total"), {
        fill: DICE.muted,
        anchor: "end",
        baseline: "auto",
      }),
    );
    for (const player of view.players) {
      const y = top + 112 + player.seat * 64;
      const colour = ctx.colour(player.seat);
      const out = player.eliminated;
      const ink = out ? DICE.muted : DICE.ink;
      const middle = y + (race ? 24 : 32);
      parts.push(
        s("rect", {
          x: 14,
          y: y + 3,
          width: width - 28,
          height: 58,
          rx: 12,
          fill: out ? "#ece7de" : DICE.panel,
          stroke: DICE.edge,
        }),
        s("rect", { x: 14, y: y + 3, width: 7, height: 58, rx: 3, fill: colour }),
      );
      if (view.turn && view.turn.seat === player.seat) parts.push(diceCar("E", 26, y + 19, 40));
      const mark = out ? say("dice.picture.out") : view.winners.includes(player.seat) ? say("dice.picture.winner") : "";
      const room = chipsX - 8 - 74 - (mark ? textWidth(mark, 20, true) + 62 : 36);
      const [name] = fitted(ctx.name(player.seat), 23, Math.min(280, room), { bold: true, smallest: 23 });
      parts.push(diceText(74, middle, name, { size: 23, bold: true, fill: ink }));
      const end = 74 + textWidth(name, 23, true);
      if (view.winners.includes(player.seat)) {
        parts.push(
          star(end + 20, middle, 24, DICE.gold),
          diceText(end + 40, middle, say("dice.picture.winner"), { bold: true }),
        );
      } else if (out) {
        parts.push(diceText(end + 14, middle, say("dice.picture.out"), { fill: DICE.muted, bold: true }));
      }
      if (race) {
        const [x0, x1] = bar;
        parts.push(s("rect", { x: x0, y: y + 46, width: x1 - x0, height: 8, rx: 4, fill: "#e9e2d5" }));
        if (player.total) {
          const filled = ((x1 - x0) * Math.min(player.total, view.options.target)) / view.options.target;
          parts.push(s("rect", { x: x0, y: y + 46, width: Math.max(filled, 8), height: 8, rx: 4, fill: colour }));
        }
        parts.push(s("rect", { x: x1 - 1, y: y + 42, width: 2, height: 16, fill: DICE.ink }));
      }
      player.turns.slice(-place.chips).forEach((turn, k) => {
        const x = chipsX + k * 59;
        const crashed = turn.outcome === "crashed";
        const fillColour = crashed
          ? DICE.ink
          : turn.outcome === "bonus"
            ? DICE.gold
            : turn.points
              ? DICE.panel
              : "#e9e2d5";
        parts.push(
          s("rect", {
            x,
            y: y + 14,
            width: 54,
            height: 36,
            rx: 8,
            fill: fillColour,
            stroke: turn.points ? DICE.edge : DICE.faint,
            "stroke-width": 2,
          }),
        );
        parts.push(
          crashed
            ? s("path", {
                d: `M${x + 19} ${y + 24}L${x + 35} ${y + 40}M${x + 35} ${y + 24}L${x + 19} ${y + 40}`,
                stroke: DICE.panel,
                "stroke-width": 4,
              })
            : diceText(x + 27, y + 32, turn.points, {
                size: 22,
                bold: Boolean(turn.points),
                fill: turn.points ? DICE.ink : DICE.muted,
                anchor: "middle",
              }),
        );
      });
      parts.push(diceText(width - 28, y + 32, player.standing, { size: 34, bold: true, anchor: "end", fill: ink }));
    }
    return parts;
  }
})();
