// Ticket to Ride: The Card Game's table as its picture draws it (render/cardgame/table.py): the face-up cards, the
// deck and the tickets, the big-city bonuses, and each player's Rail Yard by colour and Train Stack, the last play's
// groups ringed in gold; two players to a row, one on a narrow screen.
"use strict";

(() => {
  const { PALETTE, h, s, inkOn, card, chip, badge, star, fitted } = Board;
  const TTR = PALETTE.ttr;
  const CG = PALETTE.cardgame;

  const PAD = 16;
  const CARD_W = 70;
  const CARD_H = 100;
  const PANEL_H = 160;
  const GAP = 12;
  const YARD_CARD = [50, 72];

  /** A face-down pile with its size written on the top card (render/cardgame/pieces.py). */
  function pile(x, y, w, hgt, count, ticket) {
    const [fillColour, trim] = ticket ? [CG.ticket_back, CG.ticket_trim] : [CG.back, CG.back_trim];
    if (count <= 0) {
      return s("rect", {
        x,
        y,
        width: w,
        height: hgt,
        rx: w * 0.14,
        fill: "none",
        stroke: TTR.panel_muted,
        "stroke-dasharray": "6 5",
      });
    }
    const cards = [];
    for (let k = Math.min(3, Math.ceil(count / 10)) - 1; k >= 0; k--) {
      const [cx, cy] = [x + k * 4, y - k * 4];
      cards.push(
        s("rect", {
          x: cx,
          y: cy,
          width: w,
          height: hgt,
          rx: w * 0.14,
          fill: fillColour,
          stroke: TTR.dark_ink,
          "stroke-width": 2,
        }),
        s("rect", {
          x: cx + w * 0.12,
          y: cy + w * 0.12,
          width: w * 0.76,
          height: hgt - w * 0.24,
          rx: w * 0.08,
          fill: "none",
          stroke: trim,
          "stroke-width": 1.5,
        }),
      );
    }
    return s(
      "g",
      { class: "pile" },
      cards,
      s("text", {
        x: x + w / 2,
        y: y + hgt / 2,
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "font-size": Math.round(w * 0.46),
        "font-weight": "bold",
        fill: ticket ? TTR.dark_ink : TTR.light_ink,
        stroke: ticket ? "none" : TTR.dark_ink,
        "stroke-width": 3,
        "paint-order": "stroke",
        class: "svg-text",
        text: count,
      }),
    );
  }

  function label(x, y, text, { size = 15, fill = TTR.panel_muted, anchor = "start", bold = false } = {}) {
    return s("text", {
      x,
      y,
      "font-size": size,
      fill,
      "text-anchor": anchor,
      "font-weight": bold ? "bold" : null,
      class: "svg-text",
      text,
    });
  }

  /** Two fanned cards, the "cards in hand" icon (render/ttr/symbols.py). */
  function cardsIcon(x, y, w, hgt) {
    const cw = w * 0.62;
    return s(
      "g",
      {},
      s("rect", {
        x,
        y: y + hgt * 0.08,
        width: cw,
        height: hgt * 0.92,
        rx: hgt * 0.1,
        fill: TTR.panel_card,
        stroke: TTR.panel_muted,
        "stroke-width": 2,
      }),
      s("rect", { x: x + w - cw, y, width: cw, height: hgt * 0.92, rx: hgt * 0.1, fill: TTR.panel_muted }),
    );
  }

  /** A ticket with a notch each side, the "tickets" icon (render/ttr/symbols.py). */
  function ticketIcon(x, y, w, hgt, back) {
    const r = hgt * 0.14;
    return s(
      "g",
      {},
      s("rect", { x, y: y + hgt * 0.15, width: w, height: hgt * 0.7, rx: hgt * 0.1, fill: TTR.panel_muted }),
      s("circle", { cx: x, cy: y + hgt / 2, r, fill: back }),
      s("circle", { cx: x + w, cy: y + hgt / 2, r, fill: back }),
    );
  }

  function nameFitted(name, width, fill) {
    const [text, size] = fitted(name, 22, width, { bold: true, smallest: 15 });
    return [text, { size, fill, bold: true }];
  }

  function cityFitted(name, width) {
    const [text, size] = fitted(name, 14, width, { bold: true, smallest: 10 });
    return [text, { size, fill: TTR.dark_ink, bold: true }];
  }

  /** The status line: whose turn, the opening, or the end. */
  function status(ctx) {
    const { view, say } = ctx;
    const params = { turn: view.turn, player: ctx.name(view.current) };
    const key =
      { opening: "opening", over: "over", second_pick: "second_pick", tickets: "tickets" }[view.phase] ?? "to_play";
    return say(`cardgame_picture.status.${key}`, params);
  }

  /** One player's panel: badge, name, hand and ticket counts, the Rail Yard by colour, the Train Stack. */
  function panel(ctx, player, x, y, w) {
    const { view, say } = ctx;
    const seat = player.seat;
    const colour = ctx.colour(seat);
    const active = view.to_act.includes(seat) && view.phase !== "opening" && view.phase !== "over";
    const move = view.last_move;
    const played = move?.kind === "play" && move.seat === seat ? new Set(move.play.colors) : new Set();
    const back = active ? TTR.panel_active : TTR.panel_card;
    const parts = [
      s("rect", {
        x,
        y,
        width: w,
        height: PANEL_H,
        rx: 10,
        fill: back,
        stroke: active ? TTR.accent : "none",
        "stroke-width": 3,
      }),
      s("rect", { x, y, width: 6, height: PANEL_H, fill: colour }),
      s("circle", { cx: x + 32, cy: y + 28, r: 14, fill: "#fff" }),
      s("circle", { cx: x + 32, cy: y + 28, r: 12, fill: colour }),
      label(x + 32, y + 33, seat + 1, { size: 14, fill: inkOn(colour), anchor: "middle", bold: true }),
      label(x + 54, y + 36, ...nameFitted(ctx.name(seat), w - 54 - 170, active ? TTR.accent : TTR.panel_text)),
      cardsIcon(x + w - 152, y + 16, 24, 24),
      label(x + w - 94, y + 36, player.hand_size, { size: 22, fill: TTR.panel_text, anchor: "end", bold: true }),
      ticketIcon(x + w - 82, y + 18, 30, 20, back),
      label(x + w - 14, y + 36, player.ticket_count, { size: 22, fill: TTR.panel_text, anchor: "end", bold: true }),
    ];
    const [cw, chh] = YARD_CARD;
    if (!player.yard.length) parts.push(label(x + 20, y + 100, say("cardgame_picture.table.yard_empty"), { size: 16 }));
    const room = w - 140;
    const step = player.yard.length > 1 ? Math.min(cw + 12, (room - cw) / (player.yard.length - 1)) : cw + 12;
    player.yard.forEach((group, k) => {
      const gx = x + 18 + k * step;
      const gy = y + 54;
      parts.push(
        card(group.color, gx, gy, cw, chh, { rim: CG.card_rim, ring: played.has(group.color) ? TTR.accent : null }),
        label(gx + 2, gy + chh + 20, `×${group.cards + group.locomotives}`, {
          size: 18,
          fill: TTR.panel_text,
          bold: true,
        }),
      );
    });
    const sx = x + w - 88;
    parts.push(
      pile(sx, y + 62, 44, 62, player.stack_size, false),
      label(sx + 24, y + PANEL_H - 10, say("cardgame_picture.table.stack"), { size: 13, anchor: "middle" }),
    );
    if (view.phase === "opening") {
      const chosen = player.chose_opening ? "cardgame_picture.table.chosen" : "cardgame_picture.table.choosing";
      parts.push(label(x + w - 150, y + 36, say(chosen), { size: 14, anchor: "end" }));
    }
    return s("g", { class: "player" }, parts);
  }

  Board.kinds.cardgame = {
    stage: "table",
    zoomable: false,

    prepare: () => Promise.resolve(null),

    draw(svg, ctx) {
      const { view, say, narrow } = ctx;
      const width = narrow ? 600 : 1000;
      const top = 38;
      const parts = [];
      const dead = view.deck_size === 0 && view.deck_number === 2 && view.face_up.length > 0;
      parts.push(label(PAD, 26, say(dead ? "cardgame_picture.table.face_up_dead" : "cardgame_picture.table.face_up")));
      view.face_up.forEach((colour, k) =>
        parts.push(card(colour, PAD + k * (CARD_W + 8), top, CARD_W, CARD_H, { rim: CG.card_rim })),
      );
      const pilesX = PAD + 5 * (CARD_W + 8) + 8;
      const under = top + CARD_H + 20;
      parts.push(
        pile(pilesX, top, CARD_W, CARD_H, view.deck_size, false),
        label(pilesX + CARD_W / 2, under, say("cardgame_picture.table.deck_of", { number: view.deck_number }), {
          size: 14,
          anchor: "middle",
        }),
        pile(pilesX + CARD_W + 16, top, CARD_W, CARD_H, view.ticket_deck_size, true),
        label(pilesX + CARD_W * 1.5 + 16, under, say("cardgame_picture.table.tickets"), { size: 14, anchor: "middle" }),
      );
      const [bonusW, bonusH] = narrow ? [184, 52] : [128, 52];
      const bonusX = narrow ? PAD : width - PAD - 3 * bonusW - 16;
      const bonusTop = narrow ? under + 40 : top;
      parts.push(label(bonusX, bonusTop - 12, say("cardgame_picture.table.big_cities")));
      const cities = Object.entries(view.big_city_bonus);
      cities.forEach(([city, bonus], k) => {
        const bx = bonusX + (k % 3) * (bonusW + 8);
        const by = bonusTop + Math.floor(k / 3) * (bonusH + 4);
        parts.push(
          s("rect", {
            x: bx,
            y: by,
            width: bonusW,
            height: bonusH,
            rx: 8,
            fill: CG.bonus_fill,
            stroke: CG.bonus_edge,
            "stroke-width": 2,
          }),
          star(bx + 16, by + 17, 20, CG.bonus_edge),
          label(bx + 30, by + 24, `+${bonus}`, { size: 20, fill: TTR.dark_ink, bold: true }),
          label(bx + 8, by + 44, ...cityFitted(say(`cardgame.city.${city}`), bonusW - 14)),
        );
      });
      const bonusBottom = bonusTop + Math.ceil(cities.length / 3) * (bonusH + 4);
      const discardsY = narrow ? bonusBottom + 16 : under;
      if (view.discard_size) {
        parts.push(
          label(width - PAD, discardsY, say("cardgame_picture.table.discards", { count: view.discard_size }), {
            size: 14,
            anchor: "end",
          }),
        );
      }
      const panelsTop = Math.max(under, discardsY) + 20;
      const columns = narrow ? 1 : 2;
      const panelW = (width - 2 * PAD - (columns - 1) * GAP) / columns;
      view.players.forEach((player, k) => {
        const x = PAD + (k % columns) * (panelW + GAP);
        const y = panelsTop + Math.floor(k / columns) * (PANEL_H + GAP);
        parts.push(panel(ctx, player, x, y, panelW));
      });
      const height = panelsTop + Math.ceil(view.players.length / columns) * (PANEL_H + GAP) + 4;
      svg.append(s("rect", { width, height, fill: TTR.panel_bg }), ...parts);
      return { width, height };
    },

    tip: () => null,

    banner(ctx) {
      const { view, say } = ctx;
      if (view.phase === "over") return { text: say("cardgame_picture.status.over"), over: true };
      if (view.last_turns_left === null || view.last_turns_left === undefined) return null;
      const key = view.last_round ? "cardgame_picture.status.last_round" : "cardgame_picture.status.first_scoring_soon";
      return { text: say(key, { turns: view.last_turns_left }) };
    },

    /** Each player's points so far (scored at the scorings) and counters. */
    players(ctx) {
      const { view, say } = ctx;
      const result = view.final?.result;
      const totals = new Map((result?.players || []).map((p) => [p.seat, p.total]));
      const scores = ctx.state.scores?.at(-1) || [];
      return view.players.map((p) => ({
        seat: p.seat,
        score: totals.get(p.seat) ?? scores[p.seat] ?? 0,
        won: result?.winners.includes(p.seat),
        toPlay: view.to_act.includes(p.seat) && view.phase !== "over",
        counts: [
          { icon: "cards", value: p.hand_size },
          { icon: "tickets", value: p.ticket_count, title: say("cardgame_picture.table.tickets") },
          { icon: "stack", value: p.stack_size, title: say("cardgame_picture.table.stack") },
        ],
      }));
    },

    /** The status line and the last move (render/cardgame/table.py): cards taken, a play and its robbery, tickets
     * kept, or a pass. */
    last(ctx) {
      const { view, say } = ctx;
      const parts = [h("div", { class: "status-line", text: status(ctx) })];
      const move = view.last_move;
      if (!move || view.phase === "over") return parts;
      const words = (key, params) => h("span", { text: say(key, params) });
      parts.push(
        h("span", { class: "tag", text: say("cardgame_picture.last.label") }),
        badge(ctx, move.seat),
        h("span", { class: "who" }, ctx.mark(move.seat), ctx.name(move.seat)),
      );
      if (move.kind === "draw") {
        parts.push(
          words("cardgame_picture.last.drew", { count: move.face_up.length + move.blind }),
          h("span", { class: "chips" }, [
            ...move.face_up.map((colour) => chip(colour)),
            ...Array.from({ length: move.blind }, () => chip(null, true)),
          ]),
        );
      } else if (move.kind === "play" && move.play) {
        const play = move.play;
        parts.push(
          words("cardgame_picture.last.played", { count: play.cards + play.locomotives }),
          h("span", { class: "chips" }, [
            ...play.colors.map((colour) => chip(colour)),
            ...Array.from({ length: play.locomotives }, () => chip("locomotive")),
          ]),
        );
        if (play.robbed_seat !== null)
          parts.push(
            words("cardgame_picture.last.robbed", { victim: ctx.name(play.robbed_seat), count: play.robbed_cards }),
          );
      } else if (move.kind === "tickets") {
        const kept = move.tickets_kept;
        parts.push(
          kept === null
            ? words("cardgame_picture.last.choosing", { drawn: move.tickets_drawn })
            : words("cardgame_picture.last.kept", { kept, drawn: move.tickets_drawn }),
        );
      } else {
        parts.push(words("cardgame_picture.last.passed"));
      }
      return parts;
    },

    /** The final scores, once the game is over. */
    table(ctx) {
      const { view, say } = ctx;
      const result = view.final?.result;
      if (!result) return null;
      return [
        h("h2", { text: say("cardgame_picture.score.title_final") }),
        h(
          "table",
          { class: "final" },
          result.players.map((p) =>
            h(
              "tr",
              {},
              h("td", {}, badge(ctx, p.seat), " ", ctx.name(p.seat)),
              h("td", { class: result.winners.includes(p.seat) ? "won" : null, text: p.total }),
            ),
          ),
        ),
      ];
    },
  };
})();
