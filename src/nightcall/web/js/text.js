// Every word the pages show, in the room's language. The words live in
// /static/locales/<lang>.json (one flat table per language, the same keys in each;
// a test checks it); role names come from the room (the narrator's locale files).
// A key missing in a language falls back to English, then to the key itself.

async function fetchWords(lang) {
  try {
    const res = await fetch(`/static/locales/${lang}.json`);
    return res.ok ? await res.json() : {};
  } catch {
    return {};
  }
}

// English is the fallback for every key, so it is there before anything renders.
const ENGLISH = await fetchWords("en");
const loaded = { en: ENGLISH };
let words = ENGLISH;
let language = "en";

// Switch to the room's language; ``then`` runs once its words are in (to re-render).
export function setLanguage(lang, then = () => {}) {
  const want = LANGUAGES.includes(lang) ? lang : "en";
  if (want === language && loaded[want]) return;
  language = want;
  document.documentElement.lang = want;
  if (loaded[want]) { words = loaded[want]; then(); return; }
  fetchWords(want).then((table) => {
    loaded[want] = table;
    if (language === want) { words = table; then(); }
  });
}

export function currentLanguage() { return language; }

export const LANGUAGES = ["en", "it", "de"];
export const PICKED = "nightcall:language";  // the language picked on the front page

// Before there is a room to follow: the language picked on the front page, else the
// first of the browser's languages we have words for, else English.
export function preferredLanguage() {
  let stored = null;
  try { stored = localStorage.getItem(PICKED); } catch { /* private mode */ }
  if (LANGUAGES.includes(stored)) return stored;
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function t(key, values = {}) {
  const text = words[key] || ENGLISH[key] || key;
  return euphonic(text.replace(/\{(\w+)\}/g, (_, k) => (values[k] !== undefined ? String(values[k]) : "")));
}

// Italian "ed" before a word that starts with e ("Dario ed Elena"), as locale.py does.
function euphonic(said) {
  return language === "it" ? said.replace(/(?<![\p{L}\d_'’])e(?= [EeÈèÉé])/gu, "ed") : said;
}

// The word of `key` ("and") as it is said before `next`, where only a form can follow
// the words after it (a drop-down): "e" before "Bruno", "ed" before "Elena".
export function wordBefore(key, next) {
  const word = t(key);
  return euphonic(`${word} ${next}`).slice(0, -(String(next).length + 1));
}

// Fill the static words of a page: elements with data-t (text) or data-t-placeholder.
export function translatePage() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-placeholder]")) {
    el.placeholder = t(el.dataset.tPlaceholder);
    el.setAttribute("aria-label", el.placeholder);
  }
}

export function stageName(stage) { return t(`stage.${stage}`); }

// Is there a word for this key (in English at least)?
export function hasText(key) { return Boolean(ENGLISH[key]); }

// A refusal from the server: our words for its code, else the server's own sentence.
export function errorText(msg) {
  return ENGLISH[`err.${msg.code}`] ? t(`err.${msg.code}`) : msg.message;
}

let roleNames = {};
// A night call by name: a role's ("Werewolf"), or a group call's sentence ("The
// vampires wake up."), which no role's name says and the room's role names lack.
export function callName(call) {
  return hasText(`ev.call.${call}`) ? t(`ev.call.${call}`) : roleName(call);
}

export function setRoleNames(names) { roleNames = names || {}; }

// A named scenario (Epic Battle) in the page's language, else the rulebook's name.
export function scenarioName(s) { return (s.names && s.names[language]) || s.name; }

export function roleName(id) {
  if (id === null || id === undefined) return "?";
  if (roleNames[id]) return roleNames[id];
  return String(id).replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase())
    .replace("Doppelganger", "Doppelgänger");
}

// A word for an id (token, team, cause...), or the id itself when there is none.
function named(prefix, id) {
  const key = `${prefix}.${id}`;
  return ENGLISH[key] ? t(key) : String(id).replace(/_/g, " ");
}

// One name for a center card on every page, the same as the end's account and the
// narrator say: "center card 2" (numbered from 1; Epic's Alpha card is the extra one).
export function centerName(i) {
  return Number.isInteger(Number(i)) && Number(i) < 3 ? t("center.n", { n: Number(i) + 1 }) : t("center.extra");
}

// A card position in claims: a seat 0..n-1 or the center n+i.
export function positionName(players, p) {
  return p < players.length ? players[p] : centerName(p - players.length);
}

// A deck in a few words, as locale.py's Locale.deck says it: each role once, in the
// order first met, with its count where there are more ("3 × Werewolf, Seer").
export function deckWords(roles) {
  const counts = new Map();
  for (const r of roles) counts.set(r, (counts.get(r) || 0) + 1);
  return [...counts].map(([r, k]) => (k > 1 ? `${k} × ${roleName(r)}` : roleName(r))).join(", ");
}

// The connection status in the header ("Connected"), in the page's language now: said
// again when the room's language arrives after the first status.
export function showConnection() {
  const s = document.body.dataset.connection;
  const el = document.querySelector("#conn");
  if (el) el.textContent = s ? t(s === "online" ? "conn.online" : "conn.offline") : "";
}

// A typed player count moved into the game's range (r: a ruleset as the server lists it).
export function fitPlayers(r, typed) {
  return Math.min(Math.max(typed, r.min_players), r.max_players);
}

// The line under a player count: the game's range (rangeKey, each page words it its
// own way), or, when a typed number was moved into it, that it was.
export function playersLine(r, n, moved, rangeKey) {
  return t(moved ? "front.seats_moved" : rangeKey, { title: r.title, low: r.min_players, high: r.max_players, n });
}

// "A, B and C" in the room's language.
export function list(items) {
  if (!items.length) return t("nobody");
  if (items.length === 1) return items[0];
  return t("list.and", { rest: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

export function tokenName(id) { return named("token", id); }
export function artifactName(id) { return named("artifact", id); }
export function teamName(id) { return named("team", id); }
export function causeName(id) { return named("cause", id); }

export function actionLabel(action, players) {
  const name = (i) => (players[i] !== undefined ? players[i] : `#${i}`);
  const k = action.kind;
  const v = { name: name(action.a), other: name(action.b) };
  switch (k) {
    case "look_center":
      return action.b === undefined ? t("act.look_center", { center: centerName(action.a) })
        : t("act.look_center_two", { a: Math.min(action.a, action.b) + 1, b: Math.max(action.a, action.b) + 1 });
    case "take_center": case "copy_center":
      return t(`act.${k}`, { center: centerName(action.a) });
    default:
      if (ENGLISH[`act.${k}`]) return t(`act.${k}`, v);
      return t("act.other", { kind: k.replace(/_/g, " "),
        args: [action.a, action.b].filter((x) => x !== undefined).map(name).join(" ") });
  }
}

// The server's sentences for a message's events (the one renderer's, in the room's
// language: the pages write none of their own), each with its event, for those that
// have one (a bookkeeping event has none).
export function told(events, said) {
  return (events || []).map((e, i) => [e, (said || [])[i]]).filter(([, line]) => line);
}
