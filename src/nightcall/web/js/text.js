// Words for roles, moves and events. Role names come from the room (the
// narrator's locale, chosen per room); everything else falls back to English.

let roleNames = {};
export function setRoleNames(names) { roleNames = names || {}; }

export function roleName(id) {
  if (id === null || id === undefined) return "?";
  if (roleNames[id]) return roleNames[id];
  return String(id).replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase())
    .replace("Doppelganger", "Doppelgänger");
}

const CENTER = ["left", "middle", "right"];
export function centerName(i) { return `the ${CENTER[i] || i + 1} center card`; }

// A card position in claims: a seat 0..n-1 or the center n+i.
export function positionName(players, p) {
  return p < players.length ? players[p] : centerName(p - players.length);
}

export function actionLabel(action, players) {
  const name = (i) => (players[i] !== undefined ? players[i] : `seat ${i}`);
  switch (action.kind) {
    case "skip": return "Do nothing";
    case "abstain": return "Point at nobody";
    case "vote": return `Vote for ${name(action.a)}`;
    case "copy": return `Look at ${name(action.a)}'s card and become it`;
    case "look": return `Look at ${name(action.a)}'s card`;
    case "look_center":
      return action.b === undefined
        ? `Look at ${centerName(action.a)}`
        : `Look at ${centerName(action.a)} and ${centerName(action.b)}`;
    case "swap": return `Swap your card with ${name(action.a)}'s`;
    case "swap_two": return `Swap ${name(action.a)}'s and ${name(action.b)}'s cards`;
    case "take_center": return `Swap your card with ${centerName(action.a)}`;
    // Lupus in Tabula
    case "kill": return `Kill ${name(action.a)}`;
    case "protect": return `Protect ${name(action.a)}`;
    case "visit": return `Spend the night with ${name(action.a)}`;
    case "stay_home": return "Stay home";
    case "see": return `Find out if ${name(action.a)} is a werewolf`;
    case "mark": return `Mark ${name(action.a)} for tomorrow`;
    case "imitate": return `Imitate ${name(action.a)}`;
    case "accuse": return `Accuse ${name(action.a)}`;
    case "no_accusation": return "Accuse nobody";
    case "execute": return `Execute ${name(action.a)}`;
    default: {
      const args = [action.a, action.b].filter((x) => x !== undefined)
        .map((x) => (players[x] !== undefined ? players[x] : x));
      return [action.kind.replace(/_/g, " "), ...args].join(" ");
    }
  }
}

function names(players, seats) {
  if (!seats || seats.length === 0) return "nobody";
  return seats.map((s) => players[s]).join(", ");
}

function where(players, d) {
  return d.seat !== undefined ? `${players[d.seat]}'s card` : centerName(d.center);
}

// One event as a sentence, from the point of view of the seat ``me`` (null: public).
export function eventText(e, players, me) {
  switch (e.kind) {
    case "deal":
      return e.seat !== undefined ? `Your card: ${roleName(e.card)}` : null;
    case "call": return `${roleName(e.role || e.call)} is called.`;
    case "wolves":
      return e.seats.length === 1 ? "You are the only Werewolf."
        : `The Werewolves: ${names(players, e.seats)}.`;
    case "thumbs": return `The Werewolves raise a thumb: ${names(players, e.seats)}.`;
    case "masons": return `The Masons: ${names(players, e.seats)}.`;
    case "saw": return `You saw ${where(players, e)}: ${roleName(e.card)}.`;
    case "became": return `You are now the ${roleName(e.role)}.`;
    case "swapped":
      if (e.seats) return `You swapped ${players[e.seats[0]]}'s and ${players[e.seats[1]]}'s cards.`;
      return `You swapped your card with ${centerName(e.center)}.`;
    case "claim": {
      const who = players[e.seat];
      if (e.saw !== undefined) return `${who}: “I saw that ${positionName(players, e.saw)} is the ${roleName(e.role)}.”`;
      if (e.swapped) return `${who}: “I swapped ${positionName(players, e.swapped[0])} and ${positionName(players, e.swapped[1])}.”`;
      return `${who}: “I am the ${roleName(e.role)}.”`;
    }
    case "votes": {
      // One Night: one entry per seat; Lupus: [voter, target] pairs.
      const pairs = e.votes.map((v, s) => (Array.isArray(v) ? v : [s, v]));
      return "Votes: " + pairs.map(([s, v]) => `${players[s]} → ${v === null ? "nobody" : players[v]}`).join(", ");
    }
    case "night": return `Night ${e.night} falls.`;
    case "dawn":
      if (e.dead === undefined) return "Everyone wakes up.";
      return e.dead.length ? `Dawn: ${names(players, e.dead)} did not wake up.` : "Dawn: nobody died tonight.";
    case "accusation": return `Accusations, in this order: ${names(players, e.order)}.`
      + (e.owl !== null && e.owl !== undefined ? ` The Owl marked ${players[e.owl]}.` : "");
    case "last": return `${players[e.seat]} counts as the last to die.`;
    case "accuse": return e.target === null || e.target === undefined || e.target < 0
      ? `${players[e.seat]} accuses nobody.` : `${players[e.seat]} accuses ${players[e.target]}.`;
    case "suspects": return `Suspects: ${names(players, e.seats)}.`;
    case "executed": return `${players[e.seat]} is executed.`;
    case "wolf_pick": return `${players[e.seat]} points at ${players[e.target]}.`;
    case "seen": return `${players[e.seat]} is ${e.werewolf ? "a werewolf" : "not a werewolf"}.`;
    case "medium": return `${players[e.seat]}, executed, was ${e.werewolf ? "a werewolf" : "not a werewolf"}.`;
    case "protect": return `You protect ${players[e.seat]}.`;
    case "visit": return e.seat === null ? "You stay home." : `You spend the night with ${players[e.seat]}.`;
    case "mark": return `You mark ${players[e.seat]}.`;
    case "imitate": return `You imitate ${players[e.seat]}: you become the ${roleName(e.becomes)}.`;
    case "died":
      return e.deaths.length ? "Dead: " + e.deaths.map(([s, cause]) => `${players[s]} (${cause})`).join(", ")
        : "Nobody dies.";
    case "reveal":
      return e.cards ? "Cards: " + players.map((p, s) => `${p}: ${roleName(e.cards[s])}`).join(", ") : null;
    case "over": return null;
    default: {
      const rest = Object.entries(e).filter(([k]) => k !== "kind")
        .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${e.kind.replace(/_/g, " ")}${rest.length ? " — " + rest.join("; ") : ""}`;
    }
  }
}

// The page's own words in the room's language (the narration and the role names
// come from the narrator's locale files; the sentences about events are English).
const WORDS = {
  en: {
    "stage.lobby": "Waiting for players", "stage.night": "Night", "stage.discussion": "Day: talk",
    "stage.vote": "Vote", "stage.day": "Day", "stage.accuse": "Accusations",
    "stage.defense": "Defense", "stage.execute": "Execution", "stage.over": "The end",
    "card.yours": "Your card", "card.tap": "Tap to see your card", "sleep": "Eyes closed.",
    "sleep.hint": "Your phone will light up when you are called.", "turn": "{role}: your turn",
    "ask.vote": "Vote: who dies?", "ask.accuse": "Accuse: who is a werewolf?",
    "ask.execute": "Execute one of the Suspects", "ask.other": "Your turn",
    "talk": "Tell the table", "say": "Say it", "known": "What you know",
    "voted": "Your vote is in. Waiting for the others.",
    "ghost": "You are a ghost: stay silent. You still point in the accusations.",
    "host.open_vote": "Open the vote now", "host.end_defense": "End the defense",
    "host.add_bot": "Add a bot", "host.deal": "Deal",
    "host.deal_bots": "Deal (bots take the empty seats)",
    "end.winners": "Winners", "end.nobody_wins": "Nobody wins", "end.dead": "Dead",
    "end.nobody_died": "Nobody died.", "end.timeline": "The whole game",
  },
  it: {
    "stage.lobby": "In attesa dei giocatori", "stage.night": "Notte",
    "stage.discussion": "Giorno: discussione", "stage.vote": "Votazione", "stage.day": "Giorno",
    "stage.accuse": "Accuse", "stage.defense": "Difesa", "stage.execute": "Esecuzione",
    "stage.over": "Fine", "card.yours": "La tua carta", "card.tap": "Tocca per vedere la tua carta",
    "sleep": "Occhi chiusi.", "sleep.hint": "Il telefono si accende quando vieni chiamato.",
    "turn": "{role}: tocca a te", "ask.vote": "Votate: chi muore?",
    "ask.accuse": "Accusa: chi è un lupo?", "ask.execute": "Giustizia uno dei sospettati",
    "ask.other": "Tocca a te", "talk": "Dillo al tavolo", "say": "Dillo",
    "known": "Quello che sai", "voted": "Il tuo voto è registrato. Aspetta gli altri.",
    "ghost": "Sei un fantasma: resta in silenzio. Nelle accuse indichi ancora.",
    "host.open_vote": "Apri il voto ora", "host.end_defense": "Chiudi la difesa",
    "host.add_bot": "Aggiungi un bot", "host.deal": "Distribuisci",
    "host.deal_bots": "Distribuisci (i bot prendono i posti vuoti)",
    "end.winners": "Vincitori", "end.nobody_wins": "Nessuno vince", "end.dead": "Morti",
    "end.nobody_died": "Nessuno è morto.", "end.timeline": "Tutta la partita",
  },
  de: {
    "stage.lobby": "Warten auf Spieler", "stage.night": "Nacht", "stage.discussion": "Tag: Diskussion",
    "stage.vote": "Abstimmung", "stage.day": "Tag", "stage.accuse": "Anklagen",
    "stage.defense": "Verteidigung", "stage.execute": "Hinrichtung", "stage.over": "Ende",
    "card.yours": "Deine Karte", "card.tap": "Tippen, um deine Karte zu sehen",
    "sleep": "Augen zu.", "sleep.hint": "Dein Handy leuchtet auf, wenn du gerufen wirst.",
    "turn": "{role}: du bist dran", "ask.vote": "Abstimmung: Wer stirbt?",
    "ask.accuse": "Anklage: Wer ist ein Werwolf?", "ask.execute": "Richte einen der Verdächtigen hin",
    "ask.other": "Du bist dran", "talk": "Sag es der Runde", "say": "Sagen",
    "known": "Was du weißt", "voted": "Deine Stimme ist abgegeben. Warte auf die anderen.",
    "ghost": "Du bist ein Geist: schweig. Bei den Anklagen zeigst du weiter mit.",
    "host.open_vote": "Abstimmung jetzt öffnen", "host.end_defense": "Verteidigung beenden",
    "host.add_bot": "Bot hinzufügen", "host.deal": "Austeilen",
    "host.deal_bots": "Austeilen (Bots nehmen die freien Plätze)",
    "end.winners": "Gewinner", "end.nobody_wins": "Niemand gewinnt", "end.dead": "Tot",
    "end.nobody_died": "Niemand ist gestorben.", "end.timeline": "Die ganze Partie",
  },
};
let language = "en";
export function setLanguage(lang) { language = WORDS[lang] ? lang : "en"; }

export function t(key, values = {}) {
  const text = (WORDS[language] && WORDS[language][key]) || WORDS.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (values[k] !== undefined ? String(values[k]) : ""));
}

export function stageName(stage) { return t(`stage.${stage}`); }
