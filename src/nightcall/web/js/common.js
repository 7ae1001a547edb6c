// Pieces shared by the host screen, the phones and the spectators.
import { h } from "./dom.js";
import { artifactName, causeName, list, roleName, t, teamName, tokenName } from "./text.js";
import { icon, roleIcon, teamOf, tokenIcon } from "./roles.js";

// A bot has a plain name (the server refuses any that looks like one): the icon marks
// it, with the word for a screen reader.
function seatName(s) {
  return [s.bot ? icon("bot", { cls: "icon tiny", label: t("tag.bot") }) : null,
    h("span", { class: "name" }, s.name)];
}

// The seats in their order round the table, as a plain list (the phones).
export function renderSeats(lobby, mySeat = null, ghosts = []) {
  return h("ol", { class: "seats", "data-testid": "seats" }, lobby.seats.map((s) => h("li", {
    class: [s.connected ? "on" : "off", s.seat === mySeat ? "me" : "",
      ghosts.includes(s.name) ? "ghost" : ""].join(" "),
    "data-ghost": ghosts.includes(s.name) ? "yes" : null,
  }, seatName(s), s.connected ? null : h("span", { class: "sr-only" }, ` ${t("conn.offline")}`),
  ghosts.includes(s.name) ? h("em", {}, ` ${t("tag.ghost")}`) : null)));
}

// The table seen from above: the seats on a circle, clockwise from the top, in the
// order that counts (The Thing's neighbours, the Lupus accusations). The host may drag
// a name onto another seat, or move it with the arrows, to match the real table.
export function renderCircle(lobby, { ghosts = [], dead = [], mark = null, onArrange = null,
  suspects = [] } = {}) {
  const seats = lobby.seats;
  const n = Math.max(seats.length, 1);
  const order = seats.map((s) => s.seat);
  const move = (from, to) => {
    const next = order.filter((s) => s !== from);
    next.splice(to, 0, from);
    onArrange(next);
  };
  const ul = h("ol", { class: "seats circle", "data-testid": "seats" }, seats.map((s, k) => {
    const angle = (-90 + (360 * k) / n) * (Math.PI / 180);
    const li = h("li", {
      class: [s.connected ? "on" : "off", ghosts.includes(s.name) ? "ghost" : "",
        dead.includes(s.name) ? "dead" : "", mark === s.name ? "marked" : "",
        suspects.includes(s.name) ? "suspect" : ""].join(" "),
      "data-ghost": ghosts.includes(s.name) ? "yes" : null,
      "data-seat": s.seat,
      "data-drag": onArrange ? "yes" : null,
      title: s.name,  // (a name too long for its seat ends in "…": fitCircles)
    }, seatName(s), s.connected ? null : h("span", { class: "sr-only" }, ` ${t("conn.offline")}`),
    // (a ghost's seat is dimmed and struck through, a Suspect's lit: a word would make
    // the seat wider or taller than its neighbours allow at seventeen seats)
    ghosts.includes(s.name) ? h("em", { class: "sr-only" }, ` ${t("tag.ghost")}`) : null,
    suspects.includes(s.name) ? h("em", { class: "tag sr-only" }, ` ${t("tag.suspect")}`) : null,
    onArrange && n > 1 ? h("span", { class: "nudge" },
      h("button", { type: "button", class: "quiet", "aria-label": t("lobby.move_back", { name: s.name }),
        onclick: () => move(s.seat, (k - 1 + n) % n) }, "‹"),
      h("button", { type: "button", class: "quiet", "aria-label": t("lobby.move_on", { name: s.name }),
        onclick: () => move(s.seat, (k + 1) % n) }, "›")) : null);
    li.style.left = `${50 + 40 * Math.cos(angle)}%`;
    li.style.top = `${50 + 40 * Math.sin(angle)}%`;
    if (onArrange) dragWith(li, k, s.seat, move);
    return li;
  }));
  // (a seat no wider than the way to its neighbour: 34 % of the circle up to seven
  // seats, 14 % at seventeen; a longer name wraps, shrinks or ends in "…")
  ul.style.setProperty("--seat-w", `${(76 * Math.sin(Math.PI / Math.max(n, 3))).toFixed(1)}%`);
  return h("div", { class: "table-circle" }, h("div", { class: "felt", "aria-hidden": "true" }), ul);
}

// A word wider than its box (``el``, a block or flex item no wider than its parent: a
// seat's name, a role's name) gets smaller, down to ``floor`` of its size, rather than
// break inside ("Maximi|lian", "Unruhestifter|in"); still too wide, with ``cut``, it
// ends in "…" (app.css, .cut).
export function fitWord(el, floor = 0.8, cut = false) {
  el.style.fontSize = "";
  el.classList.remove("cut");
  if (el.scrollWidth <= el.clientWidth + 1) return;
  const base = parseFloat(getComputedStyle(el).fontSize);
  let size = Math.max(floor, el.clientWidth / el.scrollWidth);
  for (let i = 0; i < 10; i++) {
    el.style.fontSize = `${(base * size).toFixed(2)}px`;
    if (el.scrollWidth <= el.clientWidth + 1 || size <= floor) break;
    size = Math.max(floor, size - 0.04);
  }
  if (cut && el.scrollWidth > el.clientWidth + 1) el.classList.add("cut");
}

// The circles on the page once drawn: each name whole (it wraps at its spaces and
// hyphens only, app.css; a longer word shrinks, then ends in "…", the full name in the
// seat's title), and room above and below the circle for the seats that stand out of
// it, so that none covers the buttons above it or the words below.
export function fitCircles(root = document) {
  for (const circle of root.querySelectorAll(".table-circle")) {
    for (const name of circle.querySelectorAll(".seats.circle .name")) fitWord(name, 0.7, true);
    circle.style.marginTop = "";
    circle.style.marginBottom = "";
    const box = circle.getBoundingClientRect();
    const css = getComputedStyle(circle);
    let above = 0;
    let below = 0;
    for (const li of circle.querySelectorAll(".seats.circle > li")) {
      if (li.classList.contains("dragging")) continue;
      const r = li.getBoundingClientRect();
      above = Math.max(above, box.top - r.top);
      below = Math.max(below, r.bottom - box.bottom);
    }
    const GAP = 6;
    if (above > 0) circle.style.marginTop = `${Math.max(parseFloat(css.marginTop), Math.ceil(above) + GAP)}px`;
    if (below > 0) circle.style.marginBottom = `${Math.max(parseFloat(css.marginBottom), Math.ceil(below) + GAP)}px`;
  }
}

// Drag a seat onto another with a finger, a pen or a mouse (pointer events: one
// code for all; the arrows stay for keyboards and screen readers). The name follows
// the finger; where it is let go decides, and a tap that hardly moved does nothing.
function dragWith(li, k, seat, move) {
  let start = null;
  const under = (e) => document.elementsFromPoint(e.clientX, e.clientY)
    .map((el) => el.closest("li[data-drag]")).find((el) => el && el !== li) || null;
  const clear = () => {
    for (const el of document.querySelectorAll("li[data-drag].over")) el.classList.remove("over");
  };
  li.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || e.target.closest("button")) return;  // the arrows are buttons
    start = { x: e.clientX, y: e.clientY, moved: false };
    li.setPointerCapture(e.pointerId);
  });
  li.addEventListener("pointermove", (e) => {
    if (!start) return;
    const dx = e.clientX - start.x, dy = e.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 8) return;
    start.moved = true;
    li.classList.add("dragging");
    li.style.translate = `${dx}px ${dy}px`;
    clear();
    const target = under(e);
    if (target) target.classList.add("over");
  });
  const end = (e, drop) => {
    if (!start) return;
    const target = drop && start.moved ? under(e) : null;
    start = null;
    li.classList.remove("dragging");
    li.style.translate = "";
    clear();
    if (target) {
      const to = [...target.parentNode.children].indexOf(target);
      if (to >= 0 && to !== k) move(seat, to);
    }
  };
  li.addEventListener("pointerup", (e) => end(e, true));
  li.addEventListener("pointercancel", (e) => end(e, false));
}

// A role's name on a card: its longest word, in letters, as --long, so that a card too
// narrow for the word shrinks the name rather than break it ("Troublem|aker", app.css).
export function cardName(tag, text, cls = null) {
  const name = h(tag, { class: cls }, text);
  name.style.setProperty("--long", String(Math.max(...text.split(/[\s-]/).map((w) => w.length))));
  return name;
}

// A role as a small face-up card (the end screen, the deck).
export function miniCard(role, caption = null) {
  const name = cardName("span", roleName(role));
  return h("span", { class: `mini-card team-${teamOf(role)}` }, roleIcon(role), name,
    caption ? h("small", {}, caption) : null);
}

// The game's record, public once the game is over (the cards as dealt), handed to
// ``done``; the end is drawn without it meanwhile, or if it cannot be had.
export function fetchRecord(code, done) {
  fetch(`/api/rooms/${encodeURIComponent(code)}/record`).then((r) => (r.ok ? r.json() : {}))
    .then((rec) => done(rec || {})).catch(() => {});
}

// The end's cards face up, seat by seat clockwise (``seats``: {seat, name}), on the
// host's TV and on the phones: titled by what the player counts as, with the card as
// dealt and as it lies when it moved (``record`` has the deal), death, win and Epic's
// marks.
export function faceupSeats(view, record, seats) {
  const out = view.outcome || { winners: [], dead: [] };
  const cards = finalCards(view, record);
  const final = finalOf(view, record);
  const dealt = record && record.cards ? record.cards : null;
  return seats.map((s) => {
    const c = cards[s.seat] || {};
    const was = dealt ? dealt[s.name] : null;
    const ghost = (view.ghosts || []).includes(s.name);
    const caption = [was && was !== c.card ? t("end.dealt_final", { dealt: roleName(was), final: roleName(c.card) })
      : c.role !== c.card ? t("end.card_is", { card: roleName(c.card) }) : "",
    out.dead.includes(s.name) ? `✝ ${causeOf(out, s.name) || t("end.dead_tag")}` : "",
    out.winners.includes(s.name) ? `★ ${t("end.winner_tag")}` : ""].filter(Boolean).join(" · ");
    return h("li", { class: [out.winners.includes(s.name) ? "winner" : "", out.dead.includes(s.name) ? "dead" : "",
      ghost ? "ghost" : ""].join(" "), "data-ghost": ghost ? "yes" : null },
    h("span", { class: "name", title: s.name }, s.name), c.role ? miniCard(c.role, caption) : null, marksOf(final, s.name));
  });
}

// Epic Battle: the symbol token (all but the plain Certainty every seat starts with)
// and the artifact a player ended with, since they decide who counts as what.
function marksOf(final, name) {
  if (!final) return null;
  const token = final.tokens ? final.tokens[name] : null;
  const artifact = final.artifacts ? final.artifacts[name] : null;
  const chips = [
    token && token !== "certainty" ? h("span", { class: "chip", "data-testid": "end-token" },
      tokenIcon(token), tokenName(token)) : null,
    artifact ? h("span", { class: "chip", "data-testid": "end-artifact" },
      icon("artifact"), artifactName(artifact)) : null].filter(Boolean);
  return chips.length ? h("span", { class: "end-marks" }, chips) : null;
}

// The cards nobody holds at the end, as they lie: the center's three and Epic's extra
// card beside them, so the table sees where the missing roles went.
export function centerItems(view, record) {
  const final = finalOf(view, record) || {};
  return [...(final.center || []).map((role) => miniCard(role)),
    ...(final.extra ? [miniCard(final.extra, t("end.beside"))] : [])].map((card) => h("li", {}, card));
}

// A phone folds the whole game once it is longer than a screen (a Lupus game runs to
// fifty lines); ``fold.timeline`` keeps the reader's open/closed across redraws.
const SHORT_STORY = 16;

export function renderEnd(obs, players, fold = null) {
  const out = obs.view.outcome;
  const parts = [];
  // The server's timeline ends with the judge's reasoning, the same lines as the
  // outcome's explanation (both in the room's language): split them off the story.
  const why = out ? out.explanation.length : 0;
  const told = obs.timeline && obs.timeline.length >= why ? obs.timeline : null;
  const story = told ? told.slice(0, told.length - why) : obs.timeline;
  if (out) {
    parts.push(h("div", { class: "outcome", "data-testid": "outcome" },
      h("h2", {}, out.winners.length ? t("end.winners", { names: list(out.winners) }) : t("end.nobody_wins")),
      out.teams && out.teams.length ? h("p", {}, t("end.teams", { teams: list(out.teams.map(teamName)) })) : null,
      h("p", {}, out.dead.length ? t("end.dead", { names: list(out.dead) }) : t("end.nobody_died")),
      h("ul", { class: "explanation", "data-testid": "explanation" },
        out.explanation.map((l) => h("li", {}, l)))));
  }
  if (story) {
    const lines = h("ol", {}, story.map((l) => h("li", { class: /^\s/.test(l) ? "sub" : "" }, l.trim())));
    parts.push(fold
      ? h("details", { class: "timeline fold", "data-testid": "timeline",
        open: fold.timeline ?? story.length <= SHORT_STORY, ontoggle: (e) => { fold.timeline = e.target.open; } },
      h("summary", {}, h("h2", {}, t("end.timeline"))), lines)
      : h("section", { class: "timeline", "data-testid": "timeline" }, h("h2", {}, t("end.timeline")), lines));
  }
  return parts;
}

// The cards as they lie at the end, per seat: {card, role} (what it counts as), from
// the outcome's ``final`` when the rules give it, else the public reveal.
// The table at the end (cards, center, tokens...): the view's outcome, or the record's.
export function finalOf(view, record = null) {
  return (view.outcome && view.outcome.final) || (record && record.final) || null;
}

export function finalCards(view, record = null) {
  const players = view.players;
  const final = finalOf(view, record);
  const reveal = [...view.events].reverse().find((e) => e.kind === "reveal") || {};
  const pick = (table, s) => {
    if (!table) return undefined;
    return Array.isArray(table) ? table[s] : (table[players[s]] ?? table[String(s)]);
  };
  return players.map((_, s) => {
    const card = pick(final && final.cards, s) ?? pick(reveal.cards, s) ?? null;
    const role = pick(final && final.roles, s) ?? pick(reveal.roles, s) ?? card;
    return { card, role };
  });
}

export function causeOf(out, name) {
  const cause = out && out.causes ? out.causes[name] : null;
  return cause ? causeName(cause) : "";
}
