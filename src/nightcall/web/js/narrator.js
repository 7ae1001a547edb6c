// Table mode (/table): one phone or laptop in the middle of a real table, the cards
// on the table. The server decides everything that is a rule (the deck, the cards to
// pull, the night's lines and pauses, who won, the Lupus Master's game) through
// /api/narrator/*; this page shows it big, speaks it, and keeps the time.
import { cardName } from "./common.js";
import { h, mount, $ } from "./dom.js";
import { artifactName, currentLanguage, fitPlayers, list, playersLine, roleName, scenarioName, setLanguage, setRoleNames, t, translatePage } from "./text.js";
import { icon, loadRulesets, renderDeck, renderHelp, roleIcon, teamOf, tokenIcon, useRuleset } from "./roles.js";
import { chooseVoice, chosenVoice, onVoices, speak, voicesFor } from "./speech.js";
import { chime, prefs, resumeOnTap, setAmbience, setChime, setVolume } from "./sound.js";

const LANGUAGES = ["en", "it", "de"];
const PICKED = "nightcall:language";
const KEEP = "nightcall:table-mode";
const LUPUS = "nightcall:table-mode:lupus";
// Where a One Night or Epic table is (the setup, the line of the night, the day's
// clock, the end's taps, the verdict): a reload or a killed tab goes on from there.
const PLACE = "nightcall:table-mode:place";
// ?scale=0.1 runs every pause ten times faster (the browser tests); never above 1.
const SCALE = (() => {
  const v = Number(new URLSearchParams(location.search).get("scale"));
  return v > 0 && v <= 1 ? v : 1;
})();
const SUITS_RED = /[♥♦]/;

let rulesets = [];
const kept = (() => { try { return JSON.parse(localStorage.getItem(KEEP) || "{}"); } catch { return {}; } })();
const state = {
  ruleset: kept.ruleset || "", players: kept.players || 5, scenario: kept.scenario || "",
  pick: Boolean(kept.pick), counts: kept.counts || {}, speed: kept.speed || "normal",
  minutes: kept.minutes ?? null, names: kept.names || [],
  stage: "setup", setup: null, error: "", table: null, verdict: null, lupus: null,
};

function keep() {
  const { ruleset, players, scenario, pick, counts, speed, minutes, names } = state;
  try { localStorage.setItem(KEEP, JSON.stringify({ ruleset, players, scenario, pick, counts, speed, minutes, names })); }
  catch { /* private mode: not remembered */ }
}

function keepPlace(place) {
  const { setup, table, verdict } = state;
  try { localStorage.setItem(PLACE, JSON.stringify({ place, setup, table, verdict })); }
  catch { /* private mode: a reload starts again */ }
}

function forgetPlace() {
  try { localStorage.removeItem(PLACE); } catch { /* nothing kept */ }
}

function savedPlace() {
  try {
    const g = JSON.parse(localStorage.getItem(PLACE) || "null");
    return g && g.place && g.setup && Array.isArray(g.setup.steps) ? g : null;
  } catch { return null; }
}

function info() { return rulesets.find((r) => r.id === state.ruleset) || rulesets[0]; }
function lang() { return currentLanguage(); }

async function post(path, body) {
  try {
    const res = await fetch(`/api/narrator/${path}`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({ message: t("narrator.server_error") }));
    return res.ok ? { data } : { error: data.message || t("narrator.server_error") };
  } catch {
    return { error: t("narrator.offline") };
  }
}

// --- speech, sound, wake lock ------------------------------------------------------

// Say a line and call ``done`` once it has been said: the pause after a line starts
// when the voice stops, so "close your eyes" is followed by a real silence. Without a
// voice (or a synthesizer that never reports the end) the text alone carries on.
function sayThen(text, done) {
  let finished = false;
  const go = () => { if (!finished) { finished = true; done(); } };
  const spoken = $("#voice-on").checked && speak(text, lang(), { onend: go });
  // Without a voice the table reads the line: give it about the time to read it.
  if (!spoken) { setTimeout(go, Math.min(4000, 40 * text.length) * SCALE); return; }
  // A stuck synthesizer: about what a voice needs to say this line, then go on anyway.
  setTimeout(go, Math.min(12000, 1500 + 70 * text.length) * SCALE);
}

let wakeLock = null;
let wantLock = false;
async function lockScreen(on) {
  wantLock = on;
  try {
    if (on && !wakeLock && navigator.wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } else if (!on && wakeLock) {
      await wakeLock.release();
      wakeLock = null;
    }
  } catch { /* refused (battery saver): the voice goes on while the screen is on */ }
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && wantLock) lockScreen(true);
});

// --- a timer that can be paused, extended and ended --------------------------------

class Timer {
  constructor(seconds, { onTick = () => {}, onDone = () => {} } = {}) {
    this.left = seconds * 1000 * SCALE;
    this.onTick = onTick;
    this.onDone = onDone;
    this.paused = false;
    this.last = performance.now();
    this.handle = setInterval(() => this.tick(), 50);
    onTick(this);
  }
  tick() {
    const now = performance.now();
    if (!this.paused) this.left -= now - this.last;
    this.last = now;
    this.onTick(this);
    if (this.left <= 0) this.end();
  }
  seconds() { return Math.max(0, Math.ceil(this.left / 1000 / SCALE)); }
  extend(seconds) { this.left += seconds * 1000 * SCALE; this.onTick(this); }
  toggle() { this.paused = !this.paused; this.onTick(this); return this.paused; }
  end() { clearInterval(this.handle); if (this.handle !== null) { this.handle = null; this.onDone(); } }
  stop() { clearInterval(this.handle); this.handle = null; }
  // What a reload needs to go on: the time left when kept, and whether it ran since.
  snapshot() { return { left: this.left, paused: this.paused, at: Date.now() }; }
  restore({ left, paused, at }) {
    this.left = Number(left) - (paused ? 0 : Math.max(0, Date.now() - Number(at)));
    this.paused = Boolean(paused);
    this.tick();
  }
}

function clockText(s) {
  const m = Math.floor(s / 60);
  return m ? `${m}:${String(s % 60).padStart(2, "0")}` : String(s);
}

// --- the narrated steps ------------------------------------------------------------

// One player of steps ({text, role, wait}) at a time: each line shown big and spoken,
// then its pause; ``paused`` holds the line or the pause where it is.
const runner = { steps: [], i: 0, timer: null, paused: false, done: null, active: false };

// ``from``: the line to start at; ``paused``: wait for a tap first (after a reload the
// browser speaks only after one); ``onStep(i)`` hears each line as it starts.
function playSteps(steps, done, { from = 0, paused = false, onStep = null } = {}) {
  Object.assign(runner, { steps, i: from, timer: null, paused: false, done, active: true, master: false, onStep, resume: null });
  lockScreen(true);
  if (prefs.ambience) setAmbience(true);
  if (paused && from < steps.length) {
    showLine(steps[from]);
    togglePause();
  }
  nextStep();
}

function nextStep() {
  if (!runner.active) return;
  if (runner.paused) { runner.resume = nextStep; return; }
  if (runner.i >= runner.steps.length) {
    runner.active = false;
    runner.done();
    return;
  }
  const step = runner.steps[runner.i];
  const previous = runner.steps[runner.i - 1];
  if (runner.onStep) runner.onStep(runner.i);
  if (step.role && (!previous || previous.role !== step.role) && prefs.chime) chime();
  showLine(step);
  sayThen(step.text, () => {
    if (!runner.active) return;
    runner.timer = new Timer(step.wait || 0, {
      onTick: (tm) => { const el = $("#timer"); if (el) el.textContent = step.wait ? clockText(tm.seconds()) : ""; },
      onDone: () => { runner.timer = null; runner.i += 1; nextStep(); },
    });
    if (runner.paused) runner.timer.paused = true;
  });
}

function togglePause() {
  runner.paused = !runner.paused;
  if (runner.timer) runner.timer.paused = runner.paused;
  document.body.dataset.paused = runner.paused ? "yes" : "no";
  const button = $("#pause");
  if (button) {
    button.textContent = runner.paused ? t("narrator.resume") : t("narrator.pause");
    button.setAttribute("aria-pressed", runner.paused ? "true" : "false");
  }
  if ($("#paused")) $("#paused").hidden = !runner.paused;
  if (!runner.paused && runner.resume) { const go = runner.resume; runner.resume = null; go(); }
}

function stopSteps() {
  runner.active = false;
  if (runner.timer) runner.timer.stop();
  runner.timer = null;
}

function showLine(step) {
  const role = step.role;
  $("#narration").textContent = step.text;
  $("#caller").className = `caller team-${role ? teamOf(role) : "unknown"}`;
  mount($("#caller"), role ? [roleIcon(role, { cls: "icon big" }), h("span", {}, roleName(role))] : null);
  if (!runner.master) $("#progress").textContent = t("narrator.progress", { n: runner.i + 1, of: runner.steps.length });
}

function narrationPanel(extra = null) {
  return h("section", { class: "panel stage-panel", "aria-label": t("narrator.night") },
    h("p", { id: "caller", class: "caller", "data-testid": "caller" }),
    h("p", { id: "narration", class: "narration big-text", "data-testid": "narration", "aria-live": "polite" }),
    h("p", { id: "timer", class: "timer", "data-testid": "timer", role: "timer" }),
    h("p", { id: "paused", class: "paused", hidden: true, "data-testid": "paused" }, t("narrator.paused")),
    h("div", { class: "row" },
      h("button", { id: "pause", type: "button", class: "primary big", "data-testid": "pause",
        "aria-pressed": "false", onclick: togglePause }, t("narrator.pause")),
      extra),
    h("p", { id: "progress", class: "hint", "data-testid": "progress" }));
}

// --- setup -------------------------------------------------------------------------

let asked = 0;
async function refreshSetup() {
  const r = info();
  if (!r) return;
  const body = { ruleset: r.id, players: state.players, lang: lang(), speed: state.speed };
  if (state.minutes !== null && state.minutes !== "") body.discussion = Number(state.minutes) * 60;
  if (state.scenario && r.scenarios.some((s) => s.id === state.scenario)) body.scenario = state.scenario;
  if (state.pick) {
    body.roles = r.roles.flatMap((role) => Array(state.counts[role] || 0).fill(role));
  }
  const mine = ++asked;
  const { data, error } = await post("setup", body);
  if (mine !== asked) return;  // an older answer, arriving after a newer question
  state.setup = data || null;
  state.error = error || "";
  if (state.stage === "setup") renderPreview();
}

function renderSetup() {
  const r = info();
  useRuleset(r);  // the role help and sides of this game
  setRoleNames(r.role_names ? r.role_names[lang()] : null);
  const n = state.players;
  const scenarios = r.scenarios.filter((s) => !s.min_players || (n >= s.min_players && n <= s.max_players));
  if (!scenarios.some((s) => s.id === state.scenario)) state.scenario = "";
  const change = (fn) => (e) => { fn(e.target); keep(); renderSetup(); refreshSetup(); };
  const saved = savedLupus();
  mount($("#main"),
    saved ? h("section", { class: "panel" },
      h("p", {}, t("narrator.lupus_saved", { n: saved.answers.length })),
      h("button", { type: "button", class: "primary", "data-testid": "lupus-resume", onclick: () => startLupus(saved) },
        t("narrator.lupus_resume"))) : null,
    h("section", { class: "panel", "aria-labelledby": "setup-title" },
      h("h2", { id: "setup-title" }, t("narrator.setup")),
      h("label", {}, h("span", {}, t("front.game")), " ",
        h("select", { id: "game", "data-testid": "game", onchange: change((el) => { state.ruleset = el.value; state.scenario = ""; state.counts = {}; setPlayers(info(), state.players); }) },
          rulesets.map((x) => h("option", { value: x.id, selected: x.id === r.id }, x.title)))),
      h("label", {}, h("span", {}, t("narrator.players")), " ",
        h("input", { id: "players", "data-testid": "players", type: "number", min: r.min_players, max: r.max_players, value: n,
          "aria-describedby": "players-hint", onchange: change((el) => { setPlayers(r, Number(el.value) || r.min_players); }) })),
      h("p", { id: "players-hint", class: "hint", role: "status", "data-testid": "players-hint" },
        playersLine(r, n, state.playersMoved, "narrator.players_range")),
      r.scenarios.length ? h("label", {}, h("span", {}, t("front.scenario")), " ",
        h("select", { id: "scenario", "data-testid": "scenario", onchange: change((el) => { state.scenario = el.value; if (el.value) state.pick = false; }) },
          h("option", { value: "" }, t("front.scenario.none")),
          scenarios.map((s) => h("option", { value: s.id, selected: s.id === state.scenario }, scenarioName(s))))) : null,
      h("label", {}, h("span", {}, t("front.deck")), " ",
        h("select", { id: "deck-mode", "data-testid": "deck-mode", onchange: change((el) => { state.pick = el.value === "pick"; if (state.pick) { state.scenario = ""; seedCounts(); } }) },
          h("option", { value: "recommended", selected: !state.pick }, t("front.deck.recommended")),
          h("option", { value: "pick", selected: state.pick }, t("front.deck.pick")))),
      state.pick ? renderPicker(r) : null,
      h("label", {}, h("span", {}, t("narrator.speed")), " ",
        h("select", { id: "speed", onchange: change((el) => { state.speed = el.value; }) },
          ["slow", "normal", "fast"].map((s) => h("option", { value: s, selected: s === state.speed }, t(`narrator.speed.${s}`))))),
      h("label", {}, h("span", {}, t("front.discussion_minutes")), " ",
        h("input", { id: "minutes", type: "number", min: 0, max: 60, step: 0.5, value: state.minutes ?? "",
          placeholder: state.setup ? String(state.setup.timing.discussion / 60) : "", onchange: change((el) => { state.minutes = el.value === "" ? null : Number(el.value); }) }))),
    h("div", { id: "preview", "aria-live": "polite" }));
  renderPreview();
}

// The players typed, moved into the game's range; the page says when it moved them.
function setPlayers(r, typed) {
  state.players = fitPlayers(r, typed);
  state.playersMoved = state.players !== typed;
}

function seedCounts() {
  const deck = (info().decks || {})[String(state.players)] || [];
  state.counts = {};
  for (const role of deck) state.counts[role] = (state.counts[role] || 0) + 1;
}

function renderPicker(r) {
  const total = Object.values(state.counts).reduce((a, b) => a + b, 0);
  const need = state.players + (r.center_cards || 0);
  const step = (role, d) => () => {
    state.counts[role] = Math.max(0, Math.min(30, (state.counts[role] || 0) + d));
    keep(); renderSetup(); refreshSetup();
  };
  // A role's name opens its help (what it does, its side, how it wins) above the list.
  const help = (role) => () => { state.help = state.help === role ? null : role; renderSetup(); };
  return h("div", { class: "picker" },
    h("p", { class: "hint", "data-testid": "pick-total" }, t("narrator.pick_total", { n: total, need })),
    state.help && r.roles.includes(state.help) ? renderHelp(state.help) : null,
    h("ul", { class: "pick-list" }, r.roles.map((role) => h("li", { class: `team-${r.teams[role] || "unknown"}` },
      roleIcon(role),
      h("button", { type: "button", class: "quiet pick-name", "aria-expanded": String(state.help === role),
        "data-testid": `help-${role}`, onclick: help(role) }, roleName(role)),
      h("button", { type: "button", class: "quiet", "aria-label": t("narrator.less", { role: roleName(role) }), onclick: step(role, -1) }, "−"),
      h("b", { "data-testid": `count-${role}` }, String(state.counts[role] || 0)),
      h("button", { type: "button", class: "quiet", "aria-label": t("narrator.more", { role: roleName(role) }), "data-testid": `more-${role}`, onclick: step(role, 1) }, "+")))));
}

// A playing card drawn as a card: its rank and suit in the corners, red or black.
function playingCard(card, role) {
  const suit = card.slice(-1);
  const rank = card.slice(0, -1);
  return h("li", { class: `pcard ${SUITS_RED.test(suit) ? "red" : "black"}`, "data-testid": "pcard" },
    h("span", { class: "corner", "aria-hidden": "true" }, rank, h("br"), suit),
    h("span", { class: "pip", "aria-hidden": "true" }, suit),
    h("span", { class: "sr-only" }, card),
    cardName("span", roleName(role), "pcard-role"));
}

function renderPreview() {
  const el = $("#preview");
  if (!el) return;
  const s = state.setup;
  if (state.error || !s) {
    mount(el, h("section", { class: "panel" },
      h("p", { class: "error", role: "alert", "data-testid": "setup-error" }, state.error || "…")));
    return;
  }
  setRoleNames(s.role_names);
  const minutes = $("#minutes");
  if (minutes) minutes.placeholder = String(s.timing.discussion / 60);  // the rulebook's
  mount(el,
    s.warnings.length ? h("section", { class: "panel warnings", "data-testid": "warnings" },
      h("h2", {}, t("narrator.warnings")),
      h("ul", {}, s.warnings.map((w) => h("li", {}, w)))) : null,
    h("section", { class: "panel" }, h("h2", {}, t("narrator.deck", { n: s.deck.length })), renderDeck(s.deck, { testid: "deck" })),
    h("section", { class: "panel" }, h("h2", {}, t("narrator.pull")),
      s.cards ? h("ul", { class: "pcards", "data-testid": "pull" }, s.cards.map((c, i) => playingCard(c, s.deck[i])))
        : h("p", { "data-testid": "pull" }, t("narrator.epic_box"))),
    h("section", { class: "panel" }, h("h2", {}, t("narrator.order")),
      h("ol", { class: "order", "data-testid": "order" }, s.calls.map((c) => h("li", {}, roleIcon(c.id), h("span", {}, c.name)))),
      s.later_calls.length && s.later_calls.map((c) => c.id).join() !== s.calls.map((c) => c.id).join()
        ? [h("h3", {}, t("narrator.order_later")),
          h("ol", { class: "order", "data-testid": "order-later" }, s.later_calls.map((c) => h("li", {}, roleIcon(c.id), h("span", {}, c.name))))]
        : null),
    h("div", { class: "start" },
      h("button", { type: "button", class: "primary big", "data-testid": "start", onclick: start },
        s.master ? t("narrator.lupus_deal") : t("narrator.start"))));
}

function start() {
  const s = state.setup;
  if (!s) return;
  if (s.master) { renderLupusDeal(); return; }
  state.table = null;
  state.verdict = null;
  startNight(0, false);
}

function startNight(from, paused) {
  const s = state.setup;
  state.stage = "night";
  document.body.dataset.stage = "night";
  const night = s.steps.filter((x) => x.phase === "night");
  mount($("#main"), narrationPanel(h("button", { type: "button", class: "quiet", onclick: () => { stopSteps(); lockScreen(false); home(); } },
    t("narrator.stop"))));
  playSteps(night, () => renderDay(), { from, paused, onStep: (i) => keepPlace({ stage: "night", i }) });
}

// --- the day -----------------------------------------------------------------------

// The day in four parts, each kept for a reload: the lines before the discussion
// ("intro"), its clock ("talk"), the button to point ("point"), the count ("vote").
function renderDay(place = { part: "intro", i: 0 }, paused = false) {
  const s = state.setup;
  state.stage = "day";
  document.body.dataset.stage = "day";
  const day = s.steps.filter((x) => x.phase === "day");
  const talk = day.findIndex((x) => /discussion/.test(x.key));
  const intro = day.slice(0, talk + 1);
  const vote = day.slice(talk + 1);
  const at = (part) => (i) => keepPlace({ stage: "day", part, i });
  const point = () => {
    keepPlace({ stage: "day", part: "point" });
    mount($("#main"), h("section", { class: "panel stage-panel" },
      h("p", { class: "narration big-text" }, t("narrator.vote_now")),
      h("button", { type: "button", class: "primary big", "data-testid": "point", onclick: () => countdown(0, false) },
        t("narrator.point"))));
  };
  const countdown = (from, held) => {
    mount($("#main"), narrationPanel());
    playSteps(vote, () => { lockScreen(false); renderEnd(); }, { from, paused: held, onStep: at("vote") });
  };
  const discussion = (clock) => {
    const timer = dayTimer(talk >= 0 ? day[talk].wait : 0, t("narrator.discussion"), point,
      { onChange: (tm) => keepPlace({ stage: "day", part: "talk", clock: tm.snapshot() }) });
    if (clock) timer.restore(clock);  // (a clock that ran out meanwhile goes on to the vote)
    if (timer.handle !== null) keepPlace({ stage: "day", part: "talk", clock: timer.snapshot() });
  };
  if (place.part === "talk") { discussion(place.clock); return; }
  if (place.part === "point") { point(); return; }
  if (place.part === "vote") { countdown(place.i || 0, paused); return; }
  mount($("#main"), narrationPanel());
  playSteps(intro.map((x, i) => (i === intro.length - 1 ? { ...x, wait: 0 } : x)), () => discussion(null),
    { from: place.i || 0, paused, onStep: at("intro") });
}

// The discussion (or the defense): a big clock, pause, one more minute, end now.
function dayTimer(seconds, label, done, { testid = "day-timer", onChange = () => {} } = {}) {
  const panel = h("section", { class: "panel stage-panel", "data-testid": testid },
    h("h2", {}, label),
    h("p", { class: "timer huge", role: "timer", "data-testid": "clock" }),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary big", "data-testid": "clock-pause", onclick: (e) => {
        timer.toggle();
        onChange(timer);
      }, "aria-pressed": "false" }, t("narrator.pause")),
      h("button", { type: "button", "data-testid": "clock-extend", onclick: () => { timer.extend(60); onChange(timer); } }, t("narrator.extend")),
      h("button", { type: "button", "data-testid": "clock-end", onclick: () => timer.end() }, t("narrator.end_now"))));
  const clock = panel.querySelector("[data-testid=clock]");
  mount($("#main"), panel);
  const pause = panel.querySelector("[data-testid=clock-pause]");
  const timer = new Timer(seconds, {
    onTick: (tm) => {
      clock.textContent = clockText(tm.seconds());
      clock.classList.toggle("urgent", tm.seconds() <= 10);
      pause.textContent = tm.paused ? t("narrator.resume") : t("narrator.pause");
      pause.setAttribute("aria-pressed", String(tm.paused));
    },
    onDone: done,
  });
  return timer;
}

// --- the end: the judge ------------------------------------------------------------

function players() {
  const n = state.players;
  const names = state.names.slice(0, n);
  while (names.length < n) names.push(t("narrator.player", { n: names.length + 1 }));
  return names;
}

// A seat whose answers are all tapped folds into one line once another seat is tapped,
// so a long table stays short on a phone; a tap on the line opens it again.
function seatSummary(open, ...parts) {
  return h("button", { type: "button", class: "seat-summary", "data-testid": "seat-summary",
    "aria-expanded": "false", onclick: open }, parts, h("span", { class: "seat-edit" }, t("narrator.seat_edit")));
}

function roleLabel(role) {
  return h("span", {}, roleIcon(role, { cls: "icon tiny" }), roleName(role));
}

// A tap on seat ``i`` (the rows with data-testid ``testid``) that keeps that seat where
// it was on the screen while the rows above it fold or open.
function tapInPlace(testid, i, change) {
  const seatAt = () => document.querySelectorAll(`[data-testid=${testid}]`)[i];
  const before = seatAt()?.getBoundingClientRect().top;
  change();
  const after = seatAt()?.getBoundingClientRect().top;
  if (before !== undefined && after !== undefined) window.scrollBy(0, after - before);
}

// A token tap the box cannot back (it holds too few of that token), refused at that
// seat with who holds them: { seat, text }, cleared by the next tap that counts.
let refused = null;

function renderEnd() {
  const s = state.setup;
  state.stage = "end";
  document.body.dataset.stage = "end";
  const names = players();
  const middle = s.deck.length - names.length;  // 3, or 4 with Epic's Alpha Wolf
  if (!state.table || state.table.names.length !== names.length) {
    state.table = { names, cards: names.map(() => null), votes: names.map(() => null), copies: {},
      center: Array(middle).fill(null), tokens: names.map(() => "certainty") };
  }
  const tb = state.table;
  tb.copies = tb.copies || {};
  // The Curator places one artifact a night, so the table is asked once: which one
  // lies on whose card (seat: an index into names).
  if (!tb.artifact) tb.artifact = { id: "", seat: null };
  if (!Array.isArray(tb.center) || tb.center.length !== middle) tb.center = Array(middle).fill(null);
  keepPlace({ stage: "end" });
  const roles = [...new Set(s.deck)];
  const cardsOf = {};
  (s.cards || []).forEach((c, i) => { (cardsOf[s.deck[i]] = cardsOf[s.deck[i]] || []).push(c); });
  const chip = (label, pressed, onclick, extra = {}) => h("button", { type: "button", class: `chip${pressed ? " on" : ""}`, "aria-pressed": String(pressed), onclick, ...extra }, label);
  // A role's chip also shows the playing cards that stand for it, so either can be tapped.
  const cardChip = (role, pressed, onclick) => chip([roleIcon(role, { cls: "icon tiny" }), roleName(role),
    cardsOf[role] ? h("small", {}, ` ${cardsOf[role].join(" ")}`) : null], pressed, onclick, { "data-testid": `card-${role}` });
  const again = () => { refused = null; state.judgeError = ""; renderEnd(); };  // (a tap may mend it)
  // A seat with its card and vote tapped folds once another seat is tapped (seatSummary);
  // tb.open is the seat last tapped.
  const done = (i) => Boolean(tb.cards[i]) && tb.votes[i] !== null;
  const folded = (i) => done(i) && tb.open !== i && !(refused && refused.seat === i);
  const at = (i, change) => tapInPlace("end-seat", i, () => { tb.open = i; change(); });
  const tap = (i, refusal, take) => at(i, () => {
    if (!refusal) { take(); again(); return; }
    refused = { seat: i, text: refusal };
    renderEnd();
  });
  const set = (i, take) => tap(i, "", take);
  const tokens = Object.keys(s.tokens);  // (the symbol tokens the box holds)
  const summary = (name, i) => seatSummary(() => at(i, again), h("b", {}, name), roleLabel(tb.cards[i]),
    h("span", {}, `→ ${tb.votes[i] === -1 ? t("narrator.nobody") : tb.names[tb.votes[i]]}`),
    tokens.length ? h("span", {}, tokenIcon(tb.tokens[i], { cls: "icon tiny" }), t(`token.${tb.tokens[i]}`)) : null);
  // s.tokens: how many of each symbol token the box holds.
  const tokenTaken = (i, k) => {
    const holders = tb.names.filter((_, j) => j !== i && tb.tokens[j] === k);
    if (holders.length < s.tokens[k]) return "";
    return t(s.tokens[k] === 1 ? "narrator.token_taken" : "narrator.token_taken_held",
      { token: t(`token.${k}`), k: s.tokens[k], names: list(holders) });
  };
  // What a copying card became, asked once a player holds it (the Doppelgänger, the
  // Mimic, the Ghost Hunter): the judge plays the holder as that role.
  const copies = (s.copies || []).filter((c) => tb.cards.includes(c.card));
  mount($("#main"),
    h("section", { class: "panel", "aria-labelledby": "end-title" },
      h("h2", { id: "end-title" }, t("narrator.end")),
      h("p", { class: "hint" }, t("narrator.end_hint")),
      h("ol", { class: "end-table" }, tb.names.map((name, i) => folded(i)
        ? h("li", { class: "end-seat folded", "data-testid": "end-seat" }, summary(name, i))
        : h("li", { class: "end-seat", "data-testid": "end-seat" },
        h("label", {}, h("span", { class: "sr-only" }, t("narrator.name_of", { n: i + 1 })),
          h("input", { value: name, "data-testid": "name", maxlength: 40, oninput: (e) => {
            // Kept, not redrawn: the next tap redraws the names everywhere (a redraw on
            // blur would swallow the tap that caused the blur).
            tb.names[i] = e.target.value.trim() || t("narrator.player", { n: i + 1 });
            state.names = [...tb.names]; keep(); tb.open = i; keepPlace({ stage: "end" });
          } })),
        h("div", { class: "chips", role: "group", "aria-label": t("narrator.card_of", { name }) },
          roles.map((role) => cardChip(role, tb.cards[i] === role, () => set(i, () => { tb.cards[i] = role; })))),
        h("div", { class: "chips votes", role: "group", "aria-label": t("narrator.vote_of", { name }) },
          h("span", { class: "hint" }, t("narrator.points_at")),
          tb.names.map((other, j) => (j === i ? null : chip(other, tb.votes[i] === j, () => set(i, () => { tb.votes[i] = j; }), { "data-testid": "vote" }))),
          chip(t("narrator.nobody"), tb.votes[i] === -1, () => set(i, () => { tb.votes[i] = -1; }), { "data-testid": "vote-nobody" })),
        tokens.length ? h("div", { class: "chips", role: "group", "aria-label": t("narrator.token_of", { name }) },
          h("span", { class: "hint" }, t("narrator.token")),
          tokens.map((k) => chip([tokenIcon(k, { cls: "icon tiny" }), t(`token.${k}`)], tb.tokens[i] === k,
            () => tap(i, tokenTaken(i, k), () => { tb.tokens[i] = k; }), { "data-testid": `token-${k}` }))) : null,
        refused && refused.seat === i
          ? h("p", { class: "error", role: "alert", "data-testid": "seat-refused" }, refused.text) : null))),
      copies.map((c) => h("div", { class: "copy-question", "data-testid": `copy-${c.card}` },
        h("h3", {}, t(`narrator.copy.${c.card}`, { name: tb.names[tb.cards.indexOf(c.card)] })),
        c.card === "mimic" ? h("p", { class: "hint" }, t("narrator.copy.mimic_hint")) : null,
        // A Mimic who took on the Ghost Hunter may have turned into what it found.
        c.card === "mimic" && c.options.includes("ghost_hunter")
          ? h("p", { class: "hint" }, t("narrator.copy.mimic_ghost")) : null,
        h("div", { class: "chips", role: "group", "aria-label": t(`narrator.copy.${c.card}`, { name: tb.names[tb.cards.indexOf(c.card)] }) },
          c.options.map((role) => chip(role ? [roleIcon(role, { cls: "icon tiny" }), roleName(role)] : t("narrator.copy.stayed"),
            (tb.copies[c.card] ?? (role ? null : "")) === role, () => { tb.copies[c.card] = role; again(); },
            { "data-testid": `copied-${role || "none"}` }))))),
      s.artifacts.length ? h("section", { class: "artifact-question", "aria-labelledby": "artifact-title", "data-testid": "artifact" },
        h("h3", { id: "artifact-title" }, t("narrator.artifact_title")),
        h("p", { class: "hint" }, t("narrator.artifact_hint")),
        h("div", { class: "chips", role: "group", "aria-labelledby": "artifact-title" },
          ["", ...s.artifacts].map((a) => chip(a ? [icon("artifact", { cls: "icon tiny" }), artifactName(a)] : t("narrator.none"),
            tb.artifact.id === a, () => { tb.artifact.id = a; again(); }, { "data-testid": `artifact-${a || "none"}` }))),
        tb.artifact.id ? h("div", { class: "chips", role: "group", "aria-label": t("narrator.artifact_on") },
          h("span", { class: "hint" }, t("narrator.artifact_on")),
          tb.names.map((other, j) => chip(other, tb.artifact.seat === j, () => { tb.artifact.seat = j; again(); },
            { "data-testid": "artifact-on" }))) : null) : null,
      // Optional, and long on a phone: folded until opened or a card in it is tapped.
      h("details", { class: "center-question", "data-testid": "center", open: tb.centerOpen || tb.center.some((c) => c),
        ontoggle: (e) => { tb.centerOpen = e.target.open; keepPlace({ stage: "end" }); } },
        h("summary", { "data-testid": "center-open" }, h("h3", { id: "center-title" }, t("narrator.center")),
          h("span", { class: "hint" }, t("narrator.optional"))),
        h("p", { class: "hint" }, t("narrator.center_hint")),
        h("ol", { class: "end-table" }, tb.center.map((card, k) => h("li", { class: "end-seat", "data-testid": "center-card" },
          h("p", { class: "seat-name" }, t("narrator.center_n", { n: k + 1 })),
          h("div", { class: "chips", role: "group", "aria-label": t("narrator.center_n", { n: k + 1 }) },
            // (a second tap on the chosen card takes it back: the card is not turned over)
            roles.map((role) => cardChip(role, card === role, () => { tb.center[k] = card === role ? null : role; again(); }))))))),
      h("p", { class: "error", role: "alert", "data-testid": "judge-error" }, state.judgeError || ""),
      h("button", { type: "button", class: "primary big", "data-testid": "judge", onclick: judge }, t("narrator.judge")),
      h("button", { type: "button", class: "quiet", onclick: home }, t("narrator.new_game"))));
}

async function judge() {
  const s = state.setup;
  const tb = state.table;
  const missing = tb.names.filter((_, i) => !tb.cards[i]);
  if (missing.length) { state.judgeError = t("narrator.missing_cards", { names: missing.join(", ") }); renderEnd(); return; }
  const table = { players: tb.names, cards: {}, votes: {} };
  tb.names.forEach((name, i) => {
    table.cards[name] = tb.cards[i];
    if (tb.votes[i] !== null && tb.votes[i] >= 0) table.votes[name] = tb.names[tb.votes[i]];
  });
  // Only the copiers someone holds; the center once every card of it is tapped.
  const copies = Object.entries(tb.copies).filter(([card, role]) => tb.cards.includes(card) && role !== null);
  if (copies.length) table.copies = Object.fromEntries(copies);
  else if ((s.copies || []).some((c) => tb.cards.includes(c.card))) table.copies = {};
  if (tb.center.length && tb.center.every((c) => c)) table.center = [...tb.center];
  if (Object.keys(s.tokens).length) table.tokens = Object.fromEntries(tb.names.map((n, i) => [n, tb.tokens[i] || "certainty"]));
  if (tb.artifact.id && tb.artifact.seat === null) {
    state.judgeError = t("narrator.artifact_whose", { artifact: artifactName(tb.artifact.id) }); renderEnd(); return;
  }
  if (s.artifacts.length) {
    table.artifacts = tb.artifact.id ? { [tb.names[tb.artifact.seat]]: tb.artifact.id } : {};
  }
  const { data, error } = await post("judge", { ruleset: s.ruleset, lang: lang(), deck: s.deck, table });
  if (error) { state.judgeError = error; renderEnd(); return; }
  state.judgeError = "";
  state.verdict = data;
  renderVerdict(data);
}

function renderVerdict(v) {
  refused = null;
  state.stage = "verdict";
  document.body.dataset.stage = "verdict";
  keepPlace({ stage: "verdict" });
  mount($("#main"), h("section", { class: "panel outcome", "data-testid": "verdict" },
    h("h2", {}, v.winners.length ? t("end.winners", { names: list(v.winners) }) : t("end.nobody_wins")),
    h("p", { "data-testid": "dead" }, v.dead.length
      ? t("end.dead", { names: list(v.dead.map((d) => `${d} (${v.causes[d]})`)) }) : t("end.nobody_died")),
    h("h3", {}, t("narrator.why")),
    h("ol", { class: "explanation", "data-testid": "explanation" }, v.explanation.map((l) => h("li", {}, l))),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: renderEnd, "data-testid": "change" }, t("narrator.change")),
      h("button", { type: "button", class: "primary", onclick: home }, t("narrator.new_game")))));
}

// --- Lupus: the Master's assistant ----------------------------------------------------

function savedLupus() {
  try {
    const g = JSON.parse(localStorage.getItem(LUPUS) || "null");
    if (!g || g.over || !Array.isArray(g.answers)) return null;
    // A game kept before the page named its game: only a Lupus table had a Master then.
    if (!g.ruleset) g.ruleset = (rulesets.find((r) => r.master) || {}).id;
    return rulesets.some((r) => r.id === g.ruleset && r.master) ? g : null;
  } catch { return null; }
}

function keepLupus() {
  try { localStorage.setItem(LUPUS, JSON.stringify(state.lupus)); } catch { /* not kept */ }
}

function renderLupusDeal() {
  const s = state.setup;
  state.stage = "deal";
  document.body.dataset.stage = "deal";
  const names = players();
  const deal = state.deal && state.deal.length === names.length ? state.deal : names.map(() => null);
  state.deal = deal;
  const left = (role) => s.deck.filter((r) => r === role).length - deal.filter((r) => r === role).length;
  const roles = [...new Set(s.deck)];
  // A dealt seat folds once another is tapped (seatSummary); state.dealOpen: the last tapped.
  const at = (i, change) => tapInPlace("deal-seat", i, () => {
    state.dealOpen = i; state.dealError = ""; change(); renderLupusDeal();
  });
  mount($("#main"), h("section", { class: "panel", "aria-labelledby": "deal-title" },
    h("h2", { id: "deal-title" }, t("narrator.deal")),
    h("p", { class: "hint" }, t("narrator.deal_hint")),
    h("ol", { class: "end-table" }, names.map((name, i) => (deal[i] && state.dealOpen !== i
      ? h("li", { class: "end-seat folded", "data-testid": "deal-seat" }, seatSummary(() => at(i, () => {}),
        h("span", { class: "seat-no" }, `${i + 1}.`), h("b", {}, name), roleLabel(deal[i])))
      : h("li", { class: "end-seat", "data-testid": "deal-seat" },
      h("label", {}, h("span", { class: "seat-no" }, `${i + 1}.`), h("span", { class: "sr-only" }, t("narrator.name_of", { n: i + 1 })),
        h("input", { value: name, "data-testid": "name", maxlength: 40, oninput: (e) => {
          // (kept, not redrawn: see renderEnd)
          state.names = players(); state.names[i] = e.target.value.trim() || t("narrator.player", { n: i + 1 }); keep();
          state.dealOpen = i;
        } })),
      h("div", { class: "chips", role: "group", "aria-label": t("narrator.card_of", { name }) },
        roles.map((role) => h("button", { type: "button", class: `chip${deal[i] === role ? " on" : ""}`, "aria-pressed": String(deal[i] === role),
          "data-testid": `card-${role}`, disabled: deal[i] !== role && left(role) <= 0,
          onclick: () => at(i, () => { deal[i] = role; }) },
        roleIcon(role, { cls: "icon tiny" }), roleName(role)))))))),
    h("p", { class: "error", role: "alert", "data-testid": "deal-error" }, state.dealError || ""),
    h("button", { type: "button", class: "primary big", "data-testid": "master-start", onclick: () => {
      const names = players();  // (as typed since the last redraw)
      if (deal.includes(null)) { state.dealError = t("narrator.missing_cards", { names: names.filter((_, i) => !deal[i]).join(", ") }); renderLupusDeal(); return; }
      state.dealError = "";
      startLupus({ ruleset: s.ruleset, deck: s.deck, names, cards: [...deal], answers: [], played: 0, speed: state.speed,
        discussion: state.minutes !== null && state.minutes !== "" ? Number(state.minutes) * 60 : null });
    } }, t("narrator.lupus_start")),
    h("button", { type: "button", class: "quiet", onclick: home }, t("narrator.back"))));
}

async function startLupus(game) {
  state.lupus = game;
  state.stage = "master";
  document.body.dataset.stage = "master";
  lockScreen(true);
  await lupusStep();
}

async function lupusStep() {
  const g = state.lupus;
  const body = { ruleset: g.ruleset, lang: lang(), deck: g.deck, names: g.names, cards: g.cards, answers: g.answers, speed: g.speed || "normal" };
  if (g.discussion !== null && g.discussion !== undefined) body.discussion = g.discussion;
  const { data, error } = await post("master", body);
  if (error) {
    if (g.answers.length) g.answers.pop();  // the last tap was refused: ask it again
    mount($("#main"), h("section", { class: "panel" }, h("p", { class: "error", role: "alert", "data-testid": "master-error" }, error),
      h("button", { type: "button", onclick: lupusStep }, t("narrator.retry")),
      h("button", { type: "button", class: "quiet", onclick: home }, t("narrator.back"))));
    return;
  }
  g.over = data.over;
  g.open = data.open;  // the step the engine has open: the call, the day's stage
  keepLupus();
  playItems(data, g.played || 0);
}

function renderMaster() {
  mount($("#main"),
    h("div", { class: "master" },
      narrationPanel(),
      // (on a phone the question comes right under the line; on a laptop, beside it)
      h("section", { class: "panel", id: "question", "data-testid": "question", "aria-live": "polite" }),
      h("section", { class: "panel notes", "aria-labelledby": "notes-title" },
        h("h2", { id: "notes-title" }, t("narrator.for_master")),
        h("ul", { id: "notes", "data-testid": "notes" })),
      h("section", { class: "panel log" }, h("h2", {}, t("narrator.log")), h("ul", { id: "log", "data-testid": "log" }))));
}

// The Master's items in order from ``from``: lines to say, pauses, notes to show, echoes.
function playItems(data, from) {
  const g = state.lupus;
  const items = data.items;
  const note = (text, cls) => {
    const ul = $("#notes");
    if (!ul) return;
    ul.prepend(h("li", { class: cls }, text));
    while (ul.children.length > 6) ul.lastChild.remove();
  };
  const echo = (it) => {
    const log = $("#log");
    if (log && it.kind === "tell" && it.text.startsWith("✓")) log.prepend(h("li", {}, it.text.replace(/^✓\s*/, "")));
  };
  // The Master's screen again, with what was already played: the recent notes (the
  // newest first) and every accusation so far.
  const redraw = (upto) => {
    renderMaster();
    for (const it of items.slice(Math.max(0, upto - 12), upto)) if (it.kind === "note") note(it.text, "old");
    items.slice(0, upto).forEach(echo);
  };
  redraw(from);
  let i = from;
  const next = () => {
    if (runner.paused) { runner.resume = next; return; }
    g.played = i;
    keepLupus();
    if (i >= items.length) { askMaster(data); return; }
    const it = items[i++];
    if (it.kind === "say") {
      showLine({ text: it.text, role: null });
      sayThen(it.text, next);
    } else if (it.kind === "pause") {
      runner.timer = new Timer(it.seconds, {
        onTick: (tm) => { const el = $("#timer"); if (el) el.textContent = clockText(tm.seconds()); },
        onDone: () => { runner.timer = null; next(); },
      });
      if (runner.paused) runner.timer.paused = true;
    } else if (it.kind === "discussion") {
      dayTimer(it.seconds, t("narrator.discussion"), () => { redraw(i); next(); });
    } else if (it.kind === "note") {
      note(it.text, "new");
      next();
    } else {
      // An accusation echoed back ("Ada accuses Bruno"); the closing explanation is
      // shown with the end instead.
      echo(it);
      next();
    }
  };
  runner.active = true;
  runner.master = true;
  runner.steps = items;
  next();
}

function askMaster(data) {
  const g = state.lupus;
  const q = $("#question");
  const w = data.waiting;
  const answer = (a) => {
    q.dataset.kind = "sent";  // (no second tap on the same question)
    mount(q);
    g.answers.push(a); g.played = data.items.length; lupusStep();
  };
  const back = g.answers.length ? h("button", { type: "button", class: "quiet", "data-testid": "undo", onclick: () => {
    g.answers.pop(); g.played = 0; lupusStep();
  } }, t("narrator.undo")) : null;
  $("#timer").textContent = "";
  if (!w) {
    lockScreen(false);
    if ($("#pause")) $("#pause").hidden = true;
    try { localStorage.removeItem(LUPUS); } catch { /* nothing kept */ }
    const tail = data.items.slice(data.items.map((x) => x.kind).lastIndexOf("say") + 1).filter((x) => x.kind === "tell");
    mount(q, h("h2", {}, t("narrator.lupus_over")),
      h("ol", { class: "explanation", "data-testid": "explanation" }, tail.map((x) => h("li", {}, x.text))),
      h("button", { type: "button", class: "primary", onclick: home }, t("narrator.new_game")));
    q.dataset.kind = "over";
    return;
  }
  q.dataset.kind = w.kind;
  q.dataset.open = data.open || "";  // the engine's open step: the page only answers it
  if (w.kind === "choice") {
    mount(q, h("h2", {}, w.text), h("div", { class: "chips big-chips" },
      w.options.map((o) => h("button", { type: "button", class: "chip", "data-testid": "choice", onclick: () => answer(o.answer) }, o.label))), back);
  } else if (w.kind === "defense") {
    mount(q, h("h2", {}, t("narrator.defense")),
      h("button", { type: "button", class: "primary big", "data-testid": "defense-start", onclick: () => {
        const defense = dayTimer(60, t("narrator.defense"), () => answer(""), { testid: "defense-timer" });
        $("#main").append(h("button", { type: "button", class: "primary big", "data-testid": "defense-done", onclick: () => defense.end() }, t("narrator.defense_done")));
      } }, t("narrator.defense_timer")),
      h("button", { type: "button", "data-testid": "defense-done", onclick: () => answer("") }, t("narrator.defense_done")), back);
  } else {
    mount(q, h("p", {}, t("narrator.go_on_hint")),
      h("button", { type: "button", class: "primary big", "data-testid": "go-on", onclick: () => answer("") }, t("narrator.go_on")), back);
  }
  if (data.step) q.prepend(h("p", { class: "step", "data-testid": "step" }, data.step));
}

// --- the page ---------------------------------------------------------------------

function home() {
  stopSteps();
  lockScreen(false);
  forgetPlace();
  state.table = null;
  state.verdict = null;
  state.stage = "setup";
  document.body.dataset.stage = "setup";
  renderSetup();
  refreshSetup();
}

function browserLanguage() {
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

function fillVoices() {
  const select = $("#voice");
  const voices = voicesFor(lang());
  const chosen = chosenVoice(lang());
  mount(select, voices.length ? voices.map((v) => h("option", { value: v.name, selected: chosen && v.name === chosen.name }, v.name))
    : h("option", { value: "" }, t("narrator.no_voice")));
}

// ``after``: once the language's words are in (a kept table is drawn with them).
function useLanguage(code, after = null) {
  $("#page-language").value = code;
  const redo = () => {
    translatePage();
    fillVoices();
    const r = info();
    if (r) { useRuleset(r); setRoleNames(r.role_names ? r.role_names[lang()] : null); }
    if (state.stage === "setup") { renderSetup(); refreshSetup(); }
    if (state.stage === "end") renderEnd();
  };
  const then = () => { if (after) { const go = after; after = null; go(); } };
  setLanguage(code, () => { redo(); then(); });
  redo();
  if (code === "en") then();  // (English is in before the page starts: no callback for it)
}

// The table kept before a reload, where it was: a night or a count waits for a tap
// (the browser speaks only after one), the discussion's clock goes on as it was.
function restorePlace(g) {
  const r = rulesets.find((x) => x.id === g.setup.ruleset);
  if (!r || r.master) { home(); return; }
  Object.assign(state, { ruleset: r.id, players: g.setup.players, setup: g.setup, table: g.table || null, verdict: g.verdict || null });
  if (state.table && Array.isArray(state.table.names)) state.names = [...state.table.names];
  useRuleset(r);
  setRoleNames(g.setup.role_names);
  const p = g.place;
  if (p.stage === "night") startNight(p.i || 0, true);
  else if (p.stage === "day") renderDay(p, true);
  else if (p.stage === "verdict" && state.verdict) renderVerdict(state.verdict);
  else if (p.stage === "end" || p.stage === "verdict") renderEnd();
  else home();
}

async function load() {
  // (table mode narrates a ruleset that declares a script; the first is the default)
  rulesets = (await loadRulesets()).filter((r) => r.narrated);
  if (!rulesets.some((r) => r.id === state.ruleset)) state.ruleset = rulesets[0].id;
  const r = info();
  state.players = fitPlayers(r, state.players);
  $("#page-language").addEventListener("change", () => {
    const code = $("#page-language").value;
    try { localStorage.setItem(PICKED, code); } catch { /* not remembered */ }
    useLanguage(code);
  });
  $("#ambience").checked = prefs.ambience;
  $("#chime").checked = prefs.chime;
  $("#volume").value = Math.round(prefs.volume * 100);
  $("#ambience").addEventListener("change", (e) => setAmbience(e.target.checked));
  $("#chime").addEventListener("change", (e) => setChime(e.target.checked));
  $("#volume").addEventListener("input", (e) => setVolume(Number(e.target.value) / 100));
  $("#voice").addEventListener("change", (e) => chooseVoice(lang(), e.target.value));
  onVoices(fillVoices);
  resumeOnTap();
  // Space pauses and resumes the narration, as in the terminal.
  document.addEventListener("keydown", (e) => {
    if (e.code === "Space" && runner.active && !/INPUT|SELECT|BUTTON|TEXTAREA/.test(e.target.tagName)) {
      e.preventDefault();
      togglePause();
    }
  });
  let stored = null;
  try { stored = localStorage.getItem(PICKED); } catch { /* none */ }
  const saved = savedPlace();
  if (saved) state.stage = "restoring";  // (not the setup: the kept table comes back)
  useLanguage(LANGUAGES.includes(stored) ? stored : browserLanguage(), saved ? () => restorePlace(saved) : null);
}

load();
