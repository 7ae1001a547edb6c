// The night replayed (issue 18): a picture of the table, seats in their real order,
// the center, and each step of the game in the order it happened. Everything here is
// drawn from the server's replay of a game record (/api/replay, /api/rooms/CODE/replay):
// the engine worked out which card moved where and what each look showed; this file
// only draws it, and the sentences are the server's (its one renderer, in the page's language).
import { h, mount } from "./dom.js";
import { artifactName, currentLanguage, list, t, tokenName } from "./text.js";
import { miniCard } from "./common.js";
import { roleIcon } from "./roles.js";

const SVG = "http://www.w3.org/2000/svg";
const AUTO_MS = 2600;

// Where a card position sits on the picture, in % of the table: the seats on an
// ellipse clockwise from the top, the center in a row in the middle, the Epic extra
// card under it.
function spot(p, data) {
  const n = data.players.length;
  if (p < n) {
    const a = (-90 + (360 * p) / n) * (Math.PI / 180);
    return { x: 50 + 40 * Math.cos(a), y: 50 + 39 * Math.sin(a) };
  }
  const c = p - n;
  if (c < data.center) return { x: 50 + (c - 1) * 15, y: 50 };
  return { x: 50, y: 68 };
}

// Which physical card lies at each position after each step (index 0 is the deal):
// card k is the one dealt to position k; a step's moves say where cards went.
function cardsAt(data) {
  let ids = data.start.cards.map((_, k) => k);
  const out = [ids];
  for (const step of data.steps) {
    if (step.moves.length) {
      const next = ids.slice();
      for (const [from, to] of step.moves) next[to] = ids[from];
      ids = next;
    }
    out.push(ids);
  }
  return out;
}

function eye() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "rp-eye");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const lid = document.createElementNS(SVG, "path");
  lid.setAttribute("d", "M1 12C4 6 8 4 12 4s8 2 11 8c-3 6-7 8-11 8S4 18 1 12z");
  const iris = document.createElementNS(SVG, "circle");
  iris.setAttribute("cx", "12"); iris.setAttribute("cy", "12"); iris.setAttribute("r", "4.2");
  svg.append(lid, iris);
  return svg;
}

function place(el, where) {
  el.style.setProperty("left", `${where.x}%`);
  el.style.setProperty("top", `${where.y}%`);
}

// The seat(s) a step belongs to, for its "On X's phone" line and the phone's marking.
function seatsOf(step) {
  return Array.isArray(step.seen_by) ? step.seen_by : [];
}

// Who acted in a public step (a Lupus accusation): marked on the table, no phone line.
function actorsOf(step) {
  const e = step.event || {};
  return seatsOf(step).length ? seatsOf(step) : e.kind === "accuse" ? [e.seat] : [];
}

// The server's sentences in the page's language (the one it asked for).
function inLanguage(byLanguage) {
  const all = byLanguage || {};
  return all[currentLanguage()] || Object.values(all)[0] || {};
}

// Build the replay inside ``root``. ``seat``: the phone's own seat (its steps marked).
export function mountReplay(root, data, { seat = null, tv = false } = {}) {
  const players = data.players;
  const n = players.length;
  const total = data.steps.length;
  const ids = cardsAt(data);
  const mine = (step) => seat !== null && seatsOf(step).includes(seat);
  let at = 0;           // 0: the deal; k: after step k (1-based)
  let timer = null;

  const table = h("div", { class: `rp-table${n > 10 ? " many" : ""}`, "data-testid": "replay-table",
    role: "group", "aria-label": t("replay.table") });
  table.style.setProperty("--n", String(n));
  const seatEls = players.map((name, s) => {
    const el = h("div", { class: "rp-seat", "data-testid": "replay-seat", "data-seat": s },
      h("span", { class: "rp-name" }, name), h("span", { class: "rp-mark" }));
    place(el, spot(s, data));
    el.classList.toggle("top", spot(s, data).y < 50);
    return el;
  });
  const slotEls = data.start.cards.map((_, p) => {
    const el = h("div", { class: p < n ? "rp-slot" : "rp-slot center", "aria-hidden": "true" });
    place(el, spot(p, data));
    return el;
  });
  const centerLabel = data.center
    ? h("p", { class: "rp-center-label" }, t("replay.center")) : null;
  const cardEls = data.start.cards.map((card, k) => h("div", {
    class: "rp-card", "data-testid": "replay-card", "data-card": card, "data-id": k },
  miniCard(card)));
  mount(table, slotEls, centerLabel, seatEls, cardEls);

  const counter = h("p", { class: "rp-counter", "data-testid": "replay-counter" });
  const when = h("p", { class: "rp-when", "data-testid": "replay-when" });
  const who = h("p", { class: "rp-who", "data-testid": "replay-who" });
  const said = h("p", { class: "rp-said", "data-testid": "replay-sentence" });
  const say = h("section", { class: "rp-say", "aria-live": "polite", "data-testid": "replay-say" },
    counter, when, who, said);

  // Arrows on the buttons, their words for screen readers and as a tooltip.
  const button = (key, testid, onclick, symbol) => h("button", { type: "button",
    class: "rp-button", "data-testid": testid, "aria-label": t(key), title: t(key), onclick },
  symbol);
  const first = button("replay.first", "replay-first", () => go(0), "«");
  const prev = button("replay.prev", "replay-prev", () => go(at - 1), "◀");
  const play = h("button", { type: "button", class: "rp-button", "data-testid": "replay-play",
    title: t("replay.play"), "aria-pressed": "false", onclick: () => toggle() }, t("replay.play.short"));
  const next = button("replay.next", "replay-next", () => go(at + 1), "▶");
  const last = button("replay.last", "replay-last", () => go(total), "»");
  const nextMine = seat !== null ? h("button", { type: "button", class: "rp-button wide",
    "data-testid": "replay-next-mine", onclick: () => {
      const k = data.steps.findIndex((s, i) => i >= at && mine(s));
      if (k >= 0) go(k + 1);
    } }, t("replay.next_mine")) : null;
  const slider = h("input", { type: "range", min: "0", max: String(total), value: "0",
    class: "rp-slider", "data-testid": "replay-slider", "aria-label": t("replay.slider") });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const controls = h("div", { class: "rp-controls" }, first, prev, play, next, last, nextMine);

  const download = h("a", { class: "rp-download", "data-testid": "replay-download",
    download: `nightcall-${data.room || data.ruleset}.json` }, t("replay.download"));
  download.href = URL.createObjectURL(new Blob([JSON.stringify(data.record, null, 1)],
    { type: "application/json" }));

  root.classList.toggle("tv", tv);
  mount(root, h("div", { class: "rp-layout" }, table,
    h("div", { class: "rp-side" }, say, slider, controls, download)));

  root.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement) return;
    if (ev.key === "ArrowRight") { go(at + 1); ev.preventDefault(); }
    if (ev.key === "ArrowLeft") { go(at - 1); ev.preventDefault(); }
  });

  function toggle() {
    if (timer) { stop(); return; }
    if (at >= total) go(0);
    timer = setInterval(() => { if (at >= total) stop(); else go(at + 1); }, AUTO_MS);
    play.textContent = t("replay.pause.short");
    play.title = t("replay.pause");
    play.setAttribute("aria-pressed", "true");
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    play.textContent = t("replay.play.short");
    play.title = t("replay.play");
    play.setAttribute("aria-pressed", "false");
  }

  function go(k) {
    at = Math.max(0, Math.min(total, k));
    draw();
  }

  function draw() {
    const step = at ? data.steps[at - 1] : null;
    const state = step ? step.table : data.start;
    const where = new Set(step ? step.where : []);
    const shape = step ? step.shape : "deal";
    root.dataset.step = String(at);
    root.dataset.shape = shape;
    ids[at].forEach((id, p) => {
      const el = cardEls[id];
      place(el, spot(p, data));
      el.dataset.pos = String(p);
      el.classList.toggle("hit", where.has(p));
      el.classList.toggle("moving", Boolean(step && step.moves.some(([from]) => from === p)));
      el.classList.toggle("dead", p < n && state.dead.includes(p));
      el.querySelectorAll(".rp-eye").forEach((x) => x.remove());
      if (where.has(p) && shape === "look") el.append(eye());
    });
    seatEls.forEach((el, s) => {
      el.classList.toggle("hit", where.has(s) && shape !== "look");
      el.classList.toggle("dead", state.dead.includes(s));
      el.classList.toggle("me", s === seat);
      el.classList.toggle("actor", Boolean(step && actorsOf(step).includes(s)));
      const marks = [];
      if (state.tokens && state.tokens[s]) {
        marks.push(h("span", { class: `rp-token${where.has(s) && shape === "token" ? " arrived" : ""}`,
          "data-testid": "replay-token" }, tokenName(state.tokens[s])));
      }
      const art = state.artifacts && state.artifacts[String(s)];
      if (art) marks.push(h("span", { class: "rp-token artifact" }, artifactName(art)));
      if (state.dead.includes(s)) marks.push(h("span", { class: "rp-dead" }, `✝ ${t("replay.dead")}`));
      mount(el.querySelector(".rp-mark"), marks);
    });
    counter.textContent = at ? t("replay.step", { i: at, n: total }) : t("replay.deal");
    say.classList.toggle("mine", Boolean(step && mine(step)));
    if (!step) {
      when.textContent = "";
      who.textContent = "";
      said.textContent = t("replay.deal_hint");
    } else {
      const phase = step.phase === "night" ? t("replay.night", { night: step.night })
        : step.phase === "day" ? t("replay.day", { night: step.night }) : t("replay.end");
      // The call as the timeline says it ("Called: Seer.", "The vampires wake up.").
      const calls = inLanguage(data.calls);
      mount(when, phase, step.call && step.phase === "night"
        ? [" · ", roleIcon(step.call), " ", calls[step.call] || ""] : null);
      const seats = seatsOf(step);
      const me = mine(step) ? seat : seats.length === 1 ? seats[0] : null;
      who.textContent = mine(step) ? t("replay.yours")
        : seats.length ? t("replay.on_phone", { names: list(seats.map((s) => players[s])) }) : "";
      // The step as told to the phone it was on (or to nobody in particular).
      const told = inLanguage(step.said);
      const text = told[me === null ? "" : String(me)] ?? told[""] ?? "";
      said.textContent = step.event ? text : `${text} ${t("replay.nobody_acts")}`;
    }
    slider.value = String(at);
    prev.disabled = at === 0;
    first.disabled = at === 0;
    next.disabled = at === total;
    last.disabled = at === total;
  }

  draw();
  return { go, stop, get at() { return at; } };
}

// The end screens' button that opens the replay (over the page, which stays connected).
export function replayButton(code, seat = null, { tv = false } = {}) {
  return h("button", { type: "button", class: "rp-open", "data-testid": "replay-open",
    onclick: () => openReplay(code, seat, { tv }) }, t("replay.open"));
}

// The host screen and the phones open the replay over their end screen.
export function openReplay(code, seat = null, { tv = false } = {}) {
  const close = h("button", { type: "button", class: "rp-close", "data-testid": "replay-close" },
    t("replay.close"));
  const body = h("div", { class: "rp-body", tabindex: "-1" }, h("p", {}, t("replay.loading")));
  const box = h("div", { class: "rp-overlay", role: "dialog", "aria-modal": "true",
    "aria-label": t("replay.title"), "data-testid": "replay-overlay" },
  h("div", { class: "rp-bar" }, h("h2", {}, t("replay.title")),
    h("a", { href: `/replay/${encodeURIComponent(code)}`, target: "_blank", rel: "noopener",
      "data-testid": "replay-share" }, t("replay.share")), close), body);
  let view = null;
  close.addEventListener("click", () => { if (view) view.stop(); box.remove(); });
  document.body.append(box);
  fetch(`/api/rooms/${encodeURIComponent(code)}/replay?lang=${currentLanguage()}`)
    .then(async (r) => {
      const got = await r.json().catch(() => ({}));
      if (!r.ok) throw new Error(got.message || r.statusText);
      view = mountReplay(body, got, { seat, tv });
      body.focus();
    })
    .catch((err) => mount(body, h("p", { class: "rp-error", role: "alert" }, t("replay.failed", { reason: err.message }))));
  close.focus();
}
