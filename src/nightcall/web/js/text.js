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
  return text.replace(/\{(\w+)\}/g, (_, k) => (values[k] !== undefined ? String(values[k]) : ""));
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
export function setRoleNames(names) { roleNames = names || {}; }

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

function names(players, seats) {
  return list((seats || []).map((s) => players[s]));
}

function where(players, d) {
  if (d.seat !== undefined) return t("card.of", { name: players[d.seat] });
  return centerName(d.center);
}

// One event as a sentence, from the point of view of the seat ``me`` (null: public).
export function eventText(e, players, me) {
  const p = (s) => (s === null || s === undefined || s < 0 ? t("nobody") : players[s]);
  switch (e.kind) {
    case "deal":
      return e.seat !== undefined ? t("ev.deal", { role: roleName(e.card) }) : null;
    case "call": {
      // Group calls ("vampires", "tokens"...) have their own sentence; a role is "Called: X".
      const call = e.role || e.call;
      return ENGLISH[`ev.call.${call}`] ? t(`ev.call.${call}`) : t("ev.call", { role: roleName(call) });
    }
    case "wolves":
      if (e.seats.length === 1 && e.seats[0] === me) return t("ev.wolves.one");
      if (e.dream_wolves && e.dream_wolves.length) {
        return t("ev.dream_wolves", { names: names(players, e.seats), dream: names(players, e.dream_wolves) });
      }
      return t("ev.wolves", { names: names(players, e.seats) });
    case "thumbs": return t("ev.thumbs", { names: names(players, e.seats) });
    case "masons": case "freemasons": case "lovers":
      return t(`ev.${e.kind}`, { names: names(players, e.seats) });
    case "vampires":
      return e.bitten !== undefined
        ? t("ev.vampires_bitten", { names: names(players, e.seats), bitten: p(e.bitten) })
        : t("ev.vampires", { names: names(players, e.seats) });
    case "saw":
      if (e.seat !== undefined && e.seat === me) return t("ev.saw_own", { role: roleName(e.card) });
      return t("ev.saw", { where: where(players, e), role: roleName(e.card) });
    case "saw_token": return t("ev.saw_token", { name: p(e.seat), token: tokenName(e.token) });
    case "became": return t("ev.became", { role: roleName(e.role) });
    case "swapped":
      if (e.extra) return t("ev.swapped_extra", { name: p(e.seats[0]) });
      if (e.center !== undefined && e.seats) {
        if (e.seats[0] === me) return t("ev.swapped_center_mine", { center: centerName(e.center) });
        return t("ev.swapped_center_seat", { center: centerName(e.center), name: p(e.seats[0]) });
      }
      if (e.center !== undefined) return t("ev.swapped_center", { center: centerName(e.center) });
      if (me !== null && e.seats.includes(me)) {  // your own card: "your card", not your name
        return t("ev.swapped_mine", { name: p(e.seats[0] === me ? e.seats[1] : e.seats[0]) });
      }
      return t("ev.swapped_two", { name: p(e.seats[0]), other: p(e.seats[1]) });
    case "swapped_tokens": return t("ev.swapped_tokens", { name: p(e.seats[0]), other: p(e.seats[1]) });
    case "gave_token":
      if (e.seats) return t("ev.gave_token_two", { names: names(players, e.seats), token: tokenName(e.token) });
      if (e.seat === me) return t("ev.took_token", { token: tokenName(e.token) });
      return t("ev.gave_token", { name: p(e.seat), token: tokenName(e.token) });
    case "token": return t("ev.token", { token: tokenName(e.token) });
    case "bitten": return t("ev.bitten", { name: p(e.seat) });
    case "tapped": return e.by !== undefined ? t("ev.tapped_by") : t("ev.tapped", { name: p(e.seat) });
    case "concealed": return t("ev.concealed", { name: p(e.seat) });
    case "artifact":
      return t("ev.artifact", { artifact: artifactName(e.artifact), instruction: t(`artifact.do.${e.artifact}`) });
    case "revealed":
      return t("ev.revealed", { cards: Object.entries(e.cards || {})
        .map(([s, c]) => t("ev.card", { name: p(Number(s)), role: roleName(c) })).join(", ") });
    case "claim": {
      const who = me !== null && e.seat === me ? t("you.speaker") : p(e.seat);  // not your own name
      if (e.saw !== undefined) return t("ev.claim.saw", { name: who, where: positionName(players, e.saw), role: roleName(e.role) });
      if (e.swapped) return t("ev.claim.swapped", { name: who, first: positionName(players, e.swapped[0]), second: positionName(players, e.swapped[1]) });
      return t("ev.claim.am", { name: who, role: roleName(e.role) });
    }
    case "votes": {
      // One Night: one entry per seat; Lupus: [voter, target] pairs.
      const pairs = e.votes.map((v, s) => (Array.isArray(v) ? v : [s, v]));
      return t("ev.votes", { votes: pairs.map(([s, v]) => t("ev.vote", { name: p(s), target: p(v) })).join(", ") });
    }
    case "night": return t("ev.night", { night: e.night });
    case "dawn":
      if (e.dead === undefined) return t("ev.dawn");
      if (!e.dead.length) return t("ev.dawn.none");
      return e.dead.length === 1 ? t("ev.dawn.one", { name: p(e.dead[0]) })
        : t("ev.dawn.dead", { names: names(players, e.dead) });
    case "accusation":
      return e.owl !== null && e.owl !== undefined
        ? t("ev.accusation_owl", { names: names(players, e.order), owl: p(e.owl) })
        : t("ev.accusation", { names: names(players, e.order) });
    case "last": return t("ev.last", { name: p(e.seat) });
    case "accuse": return e.target === null || e.target === undefined || e.target < 0
      ? t("ev.accuse_nobody", { name: p(e.seat) }) : t("ev.accuse", { name: p(e.seat), target: p(e.target) });
    case "suspects": return t("ev.suspects", { names: names(players, e.seats) });
    case "executed": return t("ev.executed", { name: p(e.seat) });
    case "wolf_pick": return t("ev.wolf_pick", { name: p(e.seat), target: p(e.target) });
    case "victim": return t("ev.victim", { name: p(e.seat) });
    case "seen": return t(e.werewolf ? "ev.seen_wolf" : "ev.seen_human", { name: p(e.seat) });
    case "medium": return t(e.werewolf ? "ev.medium_wolf" : "ev.medium_human", { name: p(e.seat) });
    case "protect": return t("ev.protect", { name: p(e.seat) });
    case "visit": return e.seat === null ? t("ev.stay_home") : t("ev.visit", { name: p(e.seat) });
    case "mark": return t("ev.mark", { name: p(e.seat) });
    case "imitate": return e.becomes ? t("ev.imitate", { name: p(e.seat), role: roleName(e.becomes) })
      : t("ev.imitate_nothing", { name: p(e.seat) });
    case "died":
      return e.deaths.length
        ? t("ev.died", { deaths: e.deaths.map(([s, cause]) => t("ev.died.one", { name: p(s), cause: causeName(cause) })).join(", ") })
        : t("ev.died.none");
    case "reveal": {
      const cards = e.roles || e.cards;
      return cards ? t("ev.reveal", { cards: players.map((name, s) => t("ev.card", { name, role: roleName(cards[s]) })).join(", ") }) : null;
    }
    case "over": case "causes": case "transformed": case "artifact_drawn": return null;
    default: {
      const rest = Object.entries(e).filter(([k]) => k !== "kind")
        .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : v}`);
      return t("ev.other", { kind: e.kind.replace(/_/g, " "), rest: rest.join("; ") });
    }
  }
}
