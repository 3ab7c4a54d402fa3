// Ticket to Ride's board (USA and Europe) as the pictures draw it (render/ttr): the map from `/web/maps/{map}.json`
// in the pictures' pixel space and colours, free tracks faded with their colour symbols, tunnels edged in black and
// white dashes, ferries' locomotive spaces dark with a white wheel, claimed tracks as bands in their owner's colour
// (keeping those marks), stations, the last move ringed (the tunnel being paid in amber); and beside it the players,
// the face-up cards, the route-scoring key and the final scores.
"use strict";

(() => {
  const { h, s, round1, points, rgb, toHex, inkOn, symbol, chip, badge, icon, fetchJson } = Board;

  const CITY_RADIUS = 8;
  const LABEL_SIZE = 26;
  const LABEL_GAP = 3;
  const LABEL_FONT = `bold ${LABEL_SIZE}px "DejaVu Sans Condensed", "DejaVu Sans", "Arial Narrow", sans-serif`;
  const SLIM = -1;
  const STATION_SIZE = 26;
  const STATION_DISTANCE = 23;
  const MARKED_KINDS = new Set(["claim", "tunnel_failed", "tunnel_withdrawn"]);
  const LABEL_PLACES = ["e", "w", "ne", "nw", "se", "sw", "n", "s"];

  const maps = new Map();

  /** A map's geometry, fetched once, with each track's cars worked out. */
  function loadMap(mapId) {
    if (!maps.has(mapId)) {
      const loading = fetchJson(`/web/maps/${encodeURIComponent(mapId)}.json`).then(prepareMap);
      loading.catch(() => maps.delete(mapId));
      maps.set(mapId, loading);
    }
    return maps.get(mapId);
  }

  function prepareMap(data) {
    const cities = new Map(data.cities.map((city) => [city.id, city]));
    const tracks = new Map();
    for (const route of data.routes) {
      const [length, width] = route.car;
      const slots = route.slots.map(([x, y, degrees]) => ({ x, y, degrees, angle: (degrees * Math.PI) / 180, length }));
      tracks.set(route.id, { ...route, slots, width });
    }
    return { ...data, cities, tracks, drawn: new Map() };
  }

  const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const same = (a, b) => a[0] === b[0] && a[1] === b[1];

  /** The polyline lengthened by `extra` at both ends. */
  function stretched(list, extra) {
    const [a, b] = list;
    const [c, d] = list.slice(-2);
    const la = distance(a, b) || 1;
    const lb = distance(c, d) || 1;
    return [
      [a[0] - ((b[0] - a[0]) / la) * extra, a[1] - ((b[1] - a[1]) / la) * extra],
      ...list.slice(1, -1),
      [d[0] + ((d[0] - c[0]) / lb) * extra, d[1] + ((d[1] - c[1]) / lb) * extra],
    ];
  }

  /** A car space's rectangle, turned along its track and grown by `grow` on every side. */
  function carRect(slot, width, grow, attrs) {
    const length = slot.length + 2 * grow;
    const across = width + 2 * grow;
    return s("rect", {
      x: round1(-length / 2),
      y: round1(-across / 2),
      width: round1(length),
      height: round1(across),
      transform: `translate(${slot.x} ${slot.y}) rotate(${slot.degrees})`,
      ...attrs,
    });
  }

  // ---------------------------------------------------------------------------------------------- names' places

  /** Where each city's name and station go (render/ttr/spots.py): each name takes the place of eight around its dot
   * that covers the fewest car spaces, dots and names placed before (busy cities first); a station then takes the
   * freest spot left beside its dot. */
  function placeSpots(map, names) {
    const measure = document.createElement("canvas").getContext("2d");
    measure.font = LABEL_FONT;
    const obstacles = carPoints(map);
    const degree = new Map([...map.cities.keys()].map((id) => [id, 0]));
    for (const track of map.tracks.values()) {
      degree.set(track.a, degree.get(track.a) + 1);
      degree.set(track.b, degree.get(track.b) + 1);
    }
    const order = [...map.cities.keys()].sort((a, b) => degree.get(b) - degree.get(a) || (a < b ? -1 : 1));
    const placed = new Map();
    const ascent = new Map();
    for (const id of order) {
      const city = map.cities.get(id);
      const metrics = measure.measureText(names.get(id));
      const size = [metrics.width + 2, metrics.actualBoundingBoxAscent + metrics.actualBoundingBoxDescent + 2];
      let best = null;
      let bestCost = Infinity;
      for (const place of LABEL_PLACES) {
        const box = labelBox(city, size, place);
        const cost = labelCost(box, id, map, obstacles, placed) + preference(box, city);
        if (cost < bestCost) [best, bestCost] = [box, cost];
      }
      placed.set(id, best);
      ascent.set(id, metrics.actualBoundingBoxAscent);
    }
    const spots = new Map();
    for (const [id, city] of map.cities) {
      spots.set(id, { label: placed.get(id), ascent: ascent.get(id), station: stationSpot(city, obstacles, placed) });
    }
    return spots;
  }

  /** Points that sample every car space: corners, edge middles and centre. */
  function carPoints(map) {
    const found = [];
    for (const track of map.tracks.values()) {
      for (const slot of track.slots) {
        const [ux, uy] = [Math.cos(slot.angle), Math.sin(slot.angle)];
        const [hl, hw] = [slot.length / 2, track.width / 2];
        const corners = [
          [-1, -1],
          [1, -1],
          [1, 1],
          [-1, 1],
        ].map(([sx, sy]) => [slot.x + sx * hl * ux - sy * hw * uy, slot.y + sx * hl * uy + sy * hw * ux]);
        found.push(...corners, [slot.x, slot.y]);
        corners.forEach((a, i) => {
          const b = corners[(i + 1) % 4];
          found.push([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
        });
      }
    }
    return found;
  }

  function labelBox(city, [w, hgt], place) {
    const { x, y } = city;
    const d = CITY_RADIUS + LABEL_GAP;
    const diag = d * 0.75;
    const left = { e: x + d, w: x - d - w, n: x - w / 2, s: x - w / 2 };
    const top = { e: y - hgt / 2, w: y - hgt / 2, n: y - d - hgt, s: y + d };
    if (place in left) return [left[place], top[place], left[place] + w, top[place] + hgt];
    const bx = place.includes("e") ? x + diag : x - diag - w;
    const by = place.includes("n") ? y - diag - hgt : y + diag;
    return [bx, by, bx + w, by + hgt];
  }

  /** Names beside their dot first, then above or below: small costs that break ties. */
  function preference([, y0, x1, y1], city) {
    return (y0 < city.y && city.y < y1 ? 0 : 1) + (x1 <= city.x ? 0.4 : 0);
  }

  const inside = ([px, py], box, grow = 0) =>
    box[0] - grow <= px && px <= box[2] + grow && box[1] - grow <= py && py <= box[3] + grow;

  function overlap(a, b) {
    const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
    const hgt = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
    return w > 0 && hgt > 0 ? w * hgt : 0;
  }

  function labelCost(box, id, map, obstacles, placed) {
    const [width, height] = map.size;
    let cost = box[0] < 4 || box[1] < 4 || box[2] > width - 4 || box[3] > height - 4 ? 10000 : 0;
    for (const p of obstacles) if (inside(p, box, 1)) cost += 6;
    for (const [other, city] of map.cities) {
      if (other !== id && overlap(box, [city.x - 11, city.y - 11, city.x + 11, city.y + 11])) cost += 400;
    }
    for (const other of placed.values()) cost += 4 * overlap(box, other);
    return cost;
  }

  function stationSpot(city, obstacles, placed) {
    const half = STATION_SIZE / 2 + 1;
    let best = null;
    let bestCost = Infinity;
    for (let k = 0; k < 16; k++) {
      const angle = (k * Math.PI) / 8 - Math.PI;
      const [x, y] = [city.x + Math.cos(angle) * STATION_DISTANCE, city.y + Math.sin(angle) * STATION_DISTANCE];
      const box = [x - half, y - half, x + half, y + half];
      let cost = Math.abs(angle + Math.PI / 2) * 0.1;
      for (const p of obstacles) if (inside(p, box)) cost += 5;
      for (const other of placed.values()) cost += overlap(box, other);
      if (cost < bestCost) [best, bestCost] = [[x, y], cost];
    }
    return best;
  }

  // ---------------------------------------------------------------------------------------------- the map

  /** The part of a map that never changes in a game (render/ttr/mapart.py): sea, land, tunnels' dashed edges, free
   * car spaces, cities, names. Drawn once per map and language and kept. */
  function mapArt(map, language) {
    if (map.drawn.has(language)) return map.drawn.get(language);
    const paint = map.palette;
    const [width, height] = map.size;
    const names = new Map([...map.cities].map(([id, city]) => [id, city.name[language] ?? city.name.en ?? id]));
    const spots = placeSpots(map, names);
    const land = (map.land || []).map((ring) => `M${points(ring)}Z`).join("");
    const shadows = [];
    const spaces = [];
    for (const track of map.tracks.values()) {
      track.slots.forEach((slot, i) => {
        shadows.push(carRect({ ...slot, x: slot.x + 1.6, y: slot.y + 1.6 }, track.width, 0, {}));
        spaces.push(carSpace(map, track, slot, i < track.locomotives));
      });
    }
    const rims = [...map.tracks.values()].flatMap((track) => track.band.rims.map((rim) => tunnelRim(map, rim)));
    const dots = [...map.cities.values()].map((city) => [
      s("circle", { cx: city.x, cy: city.y, r: CITY_RADIUS + 1, fill: paint.ink }),
      s("circle", { cx: city.x, cy: city.y, r: CITY_RADIUS, fill: paint.city_ring }),
      s("circle", { cx: city.x, cy: city.y, r: CITY_RADIUS - 2.5, fill: paint.city }),
    ]);
    const labels = [...map.cities.keys()].map((id) => {
      const { label, ascent } = spots.get(id);
      return s("text", {
        x: round1(label[0] + 1),
        y: round1(label[1] + 1 + ascent),
        class: "city-name",
        text: names.get(id),
      });
    });
    const art = {
      names,
      spots,
      ground: s(
        "g",
        { class: "ground" },
        s("rect", { width, height, fill: paint.sea }),
        s("path", { d: land, fill: "none", stroke: paint.coast, "stroke-width": 3, "stroke-linejoin": "round" }),
        s("path", { d: land, fill: paint.land }),
        s(
          "g",
          { fill: "none", stroke: paint.rail, "stroke-width": 1 },
          [...map.tracks.values()].map((track) => s("polyline", { points: points(track.path) })),
        ),
        s("g", { class: "tunnels" }, rims),
        s("g", { fill: shade(paint.land) }, shadows),
        s("g", {}, spaces),
        s("g", {}, dots),
      ),
      labels: s(
        "g",
        {
          fill: paint.label,
          stroke: paint.label_halo,
          "stroke-width": 4,
          "stroke-linejoin": "round",
          "pointer-events": "none",
        },
        labels,
      ),
    };
    map.drawn.set(language, art);
    return art;
  }

  function shade(hex) {
    return toHex(rgb(hex).map((v) => Math.floor((v * 3) / 4)));
  }

  /** One free car space (render/ttr/spaces.py): faded fill, thin outline and symbol, or a ferry's locomotive plate:
   * dark, with the locomotive's white wheel. */
  function carSpace(map, track, slot, locomotive) {
    const paint = map.palette;
    if (locomotive) {
      return s(
        "g",
        { class: "plate" },
        carRect(slot, track.width, 0.4, { fill: paint.ferry.plate }),
        symbol("wheel", slot.x, slot.y, map.marks.wheel, paint.ferry.wheel),
      );
    }
    const fillColour = paint.free[track.colour] ?? paint.free.gray;
    return [
      carRect(slot, track.width, SLIM, { fill: fillColour, stroke: paint.car_outline, "stroke-width": 1 }),
      symbol(paint.symbols[track.colour], slot.x, slot.y, 6.5, inkOn(fillColour)),
    ];
  }

  /** A tunnel's edge along `rim` (render/ttr/sprites.py's draw_tunnel_rim): black, every other dash white; drawn
   * where its band's dark edge will be, so it reads the same free and claimed. */
  function tunnelRim(map, rim) {
    const line = { points: points(rim), fill: "none", "stroke-width": map.marks.tunnel_edge };
    const dash = map.marks.tunnel_dash;
    return s(
      "g",
      { class: "rim" },
      s("polyline", { ...line, stroke: map.palette.tunnel.edge }),
      s("polyline", { ...line, stroke: map.palette.tunnel.dash, "stroke-dasharray": `${dash} ${dash}` }),
    );
  }

  // ---------------------------------------------------------------------------------------------- this turn's pieces

  /** A claimed track (render/ttr/sprites.py's band_sprite): one band in the owner's colour, outlined dark, with the
   * owner's number along it; a tunnel's edge dashed black and white, a ferry's locomotive plates on it. */
  function band(map, track, seat, colour) {
    const line = track.band;
    const paint = map.palette;
    const outlined = stretched(line.points, line.outline);
    const round = { fill: "none", "stroke-linejoin": "round" };
    const plate = line.width - 1;
    return s(
      "g",
      { class: "band", "data-owner": seat },
      s("polyline", {
        points: points(outlined.map(([x, y]) => [x + 1.6, y + 1.6])),
        stroke: "rgb(0 0 0 / 35%)",
        "stroke-width": line.width + 2 * line.outline,
        ...round,
      }),
      s("polyline", {
        points: points(outlined),
        stroke: paint.band_outline,
        "stroke-width": line.width + 2 * line.outline,
        ...round,
      }),
      s("polyline", { points: points(line.points), stroke: colour, "stroke-width": line.width, ...round }),
      line.rims.map((rim) => tunnelRim(map, rim)),
      line.plates.map(([x, y]) =>
        s(
          "g",
          { class: "plate" },
          s("circle", { cx: x, cy: y, r: plate / 2, fill: paint.ferry.plate }),
          line.numbers.some((at) => same(at, [x, y])) ? null : symbol("wheel", x, y, plate * 0.7, paint.ferry.wheel),
        ),
      ),
      line.numbers.map(([x, y]) =>
        s("text", {
          x: round1(x),
          y: round1(y),
          "text-anchor": "middle",
          "dominant-baseline": "central",
          "font-size": line.width - 1,
          "font-weight": "bold",
          fill: line.plates.some((at) => same(at, [x, y])) ? paint.ferry.wheel : inkOn(colour),
          class: "svg-text",
          text: seat + 1,
        }),
      ),
    );
  }

  let masks = 0;

  /** A high-contrast ring round a track (render/ttr/sprites.py's mark_sprite), with a hole so its own free spaces
   * show: `last` white in black, `winner` gold in black, `tunnel` (the tunnel being paid) amber in black. */
  function mark(map, track, kind) {
    const paint = map.palette;
    const half = track.band.width / 2 + track.band.outline;
    const line = points(stretched(track.band.points, 6));
    const id = `mark-${++masks}`;
    const round = { fill: "none", "stroke-linejoin": "round" };
    const outer = 2 * half + 26;
    const ring = { last: paint.highlight, winner: paint.winner_glow, tunnel: paint.tunnel.paying }[kind];
    return s(
      "g",
      { class: `mark ${kind}`, mask: `url(#${id})` },
      s(
        "mask",
        { id, maskUnits: "userSpaceOnUse" },
        s("polyline", { points: line, stroke: "#fff", "stroke-width": outer + 2, ...round }),
        s("polyline", { points: line, stroke: "#000", "stroke-width": 2 * half - 2, ...round }),
      ),
      s("polyline", { points: line, stroke: paint.ink, "stroke-width": outer, ...round }),
      s("polyline", { points: line, stroke: ring, "stroke-width": 2 * half + 18, ...round }),
    );
  }

  /** A double route's twin closed for good (2–3 players): greyed spaces crossed out. */
  function closedTrack(map, track) {
    const paint = map.palette;
    return s(
      "g",
      { class: "closed" },
      track.slots.map((slot) => {
        const x = slot.length / 2 + SLIM + 0.6;
        const y = track.width / 2 + SLIM + 0.6;
        return s(
          "g",
          { transform: `translate(${slot.x} ${slot.y}) rotate(${slot.degrees})` },
          s("rect", { x: -x, y: -y, width: 2 * x, height: 2 * y, fill: paint.closed, stroke: paint.ink }),
          s("path", { d: `M${-x} ${-y}L${x} ${y}M${x} ${-y}L${-x} ${y}`, stroke: paint.ink, "stroke-width": 2 }),
        );
      }),
    );
  }

  /** A station in its owner's colour with their number (render/ttr/sprites.py), ringed when just built. */
  function station(map, [x, y], seat, colour, last) {
    const paint = map.palette;
    const half = STATION_SIZE / 2;
    const [x0, y0, x1, y1] = [x - half, y - half, x + half, y + half];
    const roof = y0 + STATION_SIZE * 0.45;
    return s(
      "g",
      { class: "station" },
      last && s("circle", { cx: x, cy: y, r: STATION_SIZE * 0.78 + 3, fill: paint.ink }),
      last && s("circle", { cx: x, cy: y, r: STATION_SIZE * 0.78, fill: paint.highlight }),
      s("rect", { x: x0 + 1.5, y: roof + 1.5, width: STATION_SIZE, height: y1 - roof, fill: "rgb(0 0 0 / 40%)" }),
      s("polygon", {
        points: points([
          [x0, roof],
          [x, y0],
          [x1, roof],
          [x1, y1],
          [x0, y1],
        ]),
        fill: colour,
        stroke: paint.ink,
        "stroke-width": 1.5,
      }),
      s("text", {
        x,
        y: y0 + STATION_SIZE * 0.62,
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "font-size": 14,
        "font-weight": "bold",
        fill: inkOn(colour),
        class: "svg-text",
        text: seat + 1,
      }),
    );
  }

  /** The tracks of the longest-trail winner's (or winners') trail, at the end (render/ttr/turn_strip.py). */
  function winnersTrail(view) {
    if (!view.final) return [];
    const bonus = view.final.filter((f) => f.longest_bonus);
    const best = Math.max(0, ...view.final.map((f) => f.longest_length));
    const holders = bonus.length ? bonus : view.final.filter((f) => best > 0 && f.longest_length === best);
    return holders.flatMap((f) => f.longest_trail);
  }

  function cityName(ctx, id) {
    const city = ctx.map.cities.get(id);
    return city ? (city.name[ctx.language] ?? city.name.en ?? id) : id;
  }

  function ends(ctx, trackId) {
    const track = ctx.map.tracks.get(trackId);
    return track ? { a: cityName(ctx, track.a), b: cityName(ctx, track.b) } : { a: "?", b: "?" };
  }

  // ---------------------------------------------------------------------------------------------- the kind

  Board.kinds.ttr = {
    stage: "map",
    zoomable: true,

    prepare: (state) => loadMap(state.game.map),

    draw(svg, ctx) {
      const { view, map } = ctx;
      const art = mapArt(map, ctx.language);
      const move = view.last_move;
      const track = (id) => map.tracks.get(Number(id));
      const marks = [
        ...(view.closed || []).filter(track).map((id) => closedTrack(map, track(id))),
        ...winnersTrail(view)
          .filter(track)
          .map((id) => mark(map, track(id), "winner")),
      ];
      if (!view.final && move && MARKED_KINDS.has(move.kind) && track(move.track))
        marks.push(mark(map, track(move.track), "last"));
      if (view.tunnel && track(view.tunnel.track)) marks.push(mark(map, track(view.tunnel.track), "tunnel"));
      const bands = Object.entries(view.owners)
        .filter(([id]) => track(id))
        .map(([id, seat]) => band(map, track(id), seat, ctx.colour(seat)));
      const stations = Object.entries(view.stations)
        .filter(([id]) => art.spots.has(id))
        .map(([id, seat]) => {
          const last = !view.final && move?.kind === "station" && move.city === id;
          return station(map, art.spots.get(id).station, seat, ctx.colour(seat), last);
        });
      const hits = [...map.tracks.values()].map((t) =>
        s("polyline", { class: "hit", points: points(t.band.points), "stroke-width": 16, "data-track": t.id }),
      );
      const cityHits = [...map.cities.values()].map((city) =>
        s("circle", { class: "hit city", cx: city.x, cy: city.y, r: 14, "data-city": city.id }),
      );
      svg.append(
        art.ground,
        s("g", { class: "marks" }, marks),
        s("g", { class: "bands" }, bands),
        art.labels,
        s("g", { class: "stations" }, stations),
        s("g", { class: "hits" }, hits, cityHits),
      );
      return { width: map.size[0], height: map.size[1] };
    },

    /** A route's cities, length and score, colour, tunnel or ferry, and who holds it; a city's name and station. */
    tip(target, ctx) {
      const { view, map, say } = ctx;
      if (target.dataset.city) {
        const id = target.dataset.city;
        const owner = view.stations[id];
        return {
          title: cityName(ctx, id),
          lines: owner === undefined ? [] : [[icon("stations"), " ", badge(ctx, owner), " ", ctx.name(owner)]],
        };
      }
      const track = map.tracks.get(Number(target.dataset.track));
      if (!track) return null;
      const owner = view.owners[track.id];
      const scored = map.scoring?.route_points?.[track.length] ?? 0;
      const lines = [
        [
          chip(track.colour === "gray" ? "gray" : track.colour),
          " ",
          say("web.page.route_length", { length: track.length }),
          " · ",
          say("ttr_picture.move.points", { points: scored }),
        ],
      ];
      if (track.tunnel) lines.push(say("web.page.tunnel"));
      if (track.locomotives) lines.push(say("web.page.ferry", { count: track.locomotives }));
      if (owner !== undefined) lines.push(say("web.page.claimed_by", { player: ctx.name(owner) }));
      else if (!(view.closed || []).includes(track.id)) lines.push(say("web.page.free"));
      if (!view.final && view.last_move?.track === track.id) lines.push(say("web.page.last_move"));
      return { title: `${cityName(ctx, track.a)} – ${cityName(ctx, track.b)}`, lines };
    },

    banner(ctx) {
      const { view, say } = ctx;
      if (view.result) {
        const winners = view.result.winners.map((seat) => ctx.name(seat)).join(", ");
        return {
          text: say("ttr_picture.banner.over", { count: view.result.winners.length, players: winners }),
          over: true,
        };
      }
      if (view.last_round) return { text: say("ttr_picture.banner.last_round", { turns: view.turns_left ?? 0 }) };
      return null;
    },

    /** Each player's score (the final total at the end) and counters, as the picture's panel has them. */
    players(ctx) {
      const { view, say } = ctx;
      const stations = (ctx.map.scoring?.stations ?? 0) > 0;
      const totals = new Map((view.final || []).map((f) => [f.seat, f.total]));
      return view.players.map((p) => ({
        seat: p.seat,
        score: totals.get(p.seat) ?? p.route_points,
        won: view.result?.winners.includes(p.seat),
        toPlay: view.current === p.seat || (view.phase === "opening" && !p.chosen),
        counts: [
          { icon: "cars", value: p.cars, title: say("ttr_picture.counter.cars") },
          { icon: "cards", value: p.hand_size, title: say("ttr_picture.counter.cards") },
          { icon: "tickets", value: p.ticket_count, title: say("ttr_picture.counter.tickets") },
          stations && { icon: "stations", value: p.stations_left, title: say("ttr_picture.counter.stations") },
        ].filter(Boolean),
      }));
    },

    /** What just happened (render/ttr/turn_strip.py): the tunnel being paid, the opening, a ticket choice, or the
     * last move, its cards as cards and blind draws as backs; nothing once the game is over (the banner says). */
    last(ctx) {
      const { view, say } = ctx;
      const who = (seat) => [badge(ctx, seat), h("span", { class: "who" }, ctx.mark(seat), ctx.name(seat))];
      const words = (key, params) => h("span", { text: say(key, params) });
      if (view.final) return null;
      if (view.tunnel && view.current !== null) {
        return [
          ...who(view.current),
          words("ttr_picture.move.tunnel", ends(ctx, view.tunnel.track)),
          h(
            "span",
            { class: "chips" },
            view.tunnel.revealed.map((colour) => chip(colour)),
          ),
          h("span", { class: "gain", text: say("ttr_picture.move.tunnel_extra", { extra: view.tunnel.extra }) }),
        ];
      }
      if (view.phase === "opening") return [words("ttr_picture.status.opening")];
      if (view.tickets_offered && view.current !== null) {
        return [...who(view.current), words("ttr_picture.move.choosing", { count: view.tickets_offered })];
      }
      const move = view.last_move;
      if (!move) return view.current === null ? null : [...who(view.current), words("ttr_picture.panel.to_play")];
      const parts = [h("span", { class: "tag", text: say("ttr_picture.move.tag") }), ...who(move.seat)];
      if (move.kind === "cards") {
        parts.push(
          words("ttr_picture.move.cards", { count: move.face_up.length + move.blind }),
          h("span", { class: "chips" }, [
            ...move.face_up.map((colour) => chip(colour)),
            ...Array.from({ length: move.blind }, () => chip(null, true)),
          ]),
        );
      } else if (move.kind === "claim" && move.track !== null) {
        parts.push(
          words("ttr_picture.move.claim", ends(ctx, move.track)),
          h("span", { class: "gain", text: say("ttr_picture.move.points", { points: move.points }) }),
        );
      } else if (move.kind === "tickets") {
        parts.push(words("ttr_picture.move.tickets", { kept: move.tickets_kept, drawn: move.tickets_drawn }));
      } else if (move.kind === "station" && move.city) {
        parts.push(words("ttr_picture.move.station", { city: cityName(ctx, move.city) }));
      } else if (move.kind === "tunnel_failed" || move.kind === "tunnel_withdrawn") {
        parts.push(words(`ttr_picture.move.${move.kind}`, ends(ctx, move.track)));
      } else {
        parts.push(words("ttr_picture.move.pass"));
      }
      return parts;
    },

    /** The final scores at the end; the face-up cards and piles; the route-scoring key (render/ttr/route_key.py: the
     * lengths by the cars' icon, the points by the star). */
    table(ctx) {
      const { view, say } = ctx;
      const scoring = ctx.map.scoring?.route_points || {};
      const parts = [];
      if (view.result) {
        parts.push(
          h("h2", { text: say("ttr_picture.score.title") }),
          h(
            "table",
            { class: "final" },
            view.result.players.map((p) =>
              h(
                "tr",
                {},
                h("td", {}, badge(ctx, p.seat), " ", ctx.name(p.seat)),
                h("td", { class: view.result.winners.includes(p.seat) ? "won" : null, text: p.total }),
              ),
            ),
          ),
        );
      }
      parts.push(
        h(
          "div",
          { class: "row market" },
          view.market.map((colour) => chip(colour)),
          h("span", { class: "pile" }, chip(null, true), h("b", { text: view.deck_size })),
          h(
            "span",
            { class: "pile", title: say("ttr_picture.counter.tickets") },
            icon("tickets"),
            h("b", { text: view.ticket_deck_size }),
          ),
        ),
        h("h2", { text: say("ttr_picture.key.route_points") }),
        h(
          "table",
          { class: "key" },
          h(
            "tr",
            {},
            h("th", {}, icon("cars")),
            Object.keys(scoring).map((length) =>
              h("td", { title: say("web.page.route_length", { length: Number(length) }), text: length }),
            ),
          ),
          h(
            "tr",
            {},
            h("th", {}, icon("star")),
            Object.values(scoring).map((scored) => h("td", { text: scored })),
          ),
        ),
      );
      return parts;
    },
  };
})();
