// The player's phone: take a seat, see your card (as you know it now), act when
// called, claim, vote, and at the end read your own story.
import { h, mount, $, countdown, toast } from "./dom.js";
import { connect, roomCode } from "./net.js";
import { actionLabel, artifactName, callName, centerName, errorText, hasText, list, positionName, preferredLanguage, roleName, setLanguage, setRoleNames, showConnection, stageName, t, tokenName, told, translatePage, wordBefore } from "./text.js";
import { cardName, causeOf, centerItems, faceupSeats, fetchRecord, finalCards, renderEnd, renderSeats } from "./common.js";
import { icon, loadRulesets, renderDeck, renderHelp, roleIcon, teamLabel, teamOf, tokenIcon, useRuleset } from "./roles.js";
import { chime, prefs, setChime } from "./sound.js";
import { replayButton } from "./replay.js";

const code = roomCode();
const tokenKey = `nightcall:seat:${code}`;
// A seat moved here from another phone: its token comes in the link's fragment (which
// the browser never sends). Out of the address bar at once, so a reload or a shared
// screenshot does not carry it on. A browser that already plays another seat of the
// room keeps its own and says so (#clash): a phone plays one seat.
const handed = new URLSearchParams(location.hash.slice(1)).get("seat");
if (handed) history.replaceState(null, "", location.pathname + location.search);
const clash = Boolean(handed && localStorage.getItem(tokenKey) && localStorage.getItem(tokenKey) !== handed);
if (handed && !clash) localStorage.setItem(tokenKey, handed);
let token = localStorage.getItem(tokenKey);
let pendingName = null;
let me = null;        // {seat, name}
let lobby = null;
let obs = null;
let picked = null;    // {kind, seat}: the first seat tapped for a two-seat choice
let cardShown = false;
let helpShown = false;
let net = null;
let callKey = "";     // the call the phone last buzzed for
let turnKey = "";     // the call this phone last announced as "your turn"
let wokenKey = "";    // the call whose prompt last played its wake-up animation
const claim = {};     // the claim form's picks, kept while others claim
let record = null;    // the game record, fetched once the game is over (the cards as dealt)
// Two-seat choices drawn as a grid of names (two taps), not a list of every pair.
const PAIRS = new Set(["swap_two", "swap_tokens", "token_two"]);

$("#room-code").textContent = code;
translatePage();
loadRulesets().then((all) => {
  const wait = () => {
    if (!lobby) { setTimeout(wait, 100); return; }
    useRuleset(all.find((r) => r.id === lobby.ruleset));
    render();
  };
  wait();
});

// One screen plays a seat. When the seat is opened on another (a second tab, the link on
// another phone) the server lets this one go ("elsewhere"), and it pauses with a button
// to take the seat back.
function stepAside() {
  if (net) net.close();
  $("#game").hidden = true;
  $("#elsewhere").hidden = false;
}

$("[data-testid=use-here]").addEventListener("click", () => {
  $("#elsewhere").hidden = true;
  $("#game").hidden = false;
  start();  // (the server lets the other screen go)
});

// Moving to another phone (a flat battery, a bigger screen): the link that opens this
// seat there, as a QR code for that phone to scan, and as text to share or copy. The
// other phone takes the seat; this one then pauses ("elsewhere").
let moveOpen = false;
let seatLink = null;  // {link, qr}, asked for once, when first opened

function moveSeat() {
  const qr = seatLink && `data:image/svg+xml;charset=utf-8,${encodeURIComponent(seatLink.qr)}`;
  const share = seatLink && (navigator.share || navigator.clipboard) ? h("button", {
    type: "button", "data-testid": "move-share", onclick: shareSeatLink,
  }, t(navigator.share ? "move.share" : "move.copy")) : null;
  return h("details", {
    class: "talk move", "data-testid": "move", open: moveOpen,
    ontoggle: (e) => { moveOpen = e.target.open; if (moveOpen && !seatLink) askSeatLink(); },
  },
  h("summary", {}, t("move.title")),
  h("p", {}, t("move.body")),
  seatLink ? [
    h("img", { class: "seat-qr", src: qr, alt: t("move.qr"), "data-testid": "move-qr" }),
    h("input", { readonly: true, value: seatLink.link, "aria-label": t("move.link"),
      "data-testid": "move-link", onfocus: (e) => e.target.select() }),
    share,
  ] : h("p", { "data-testid": "move-wait" }, t("move.wait")));
}

function askSeatLink() {
  fetch(`/api/rooms/${encodeURIComponent(code)}/seat-link`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }),
  }).then((res) => (res.ok ? res.json() : Promise.reject(res.status)))
    .then((answer) => { seatLink = answer; render(); })
    .catch(() => toast(t("move.failed"), 3500));
}

function shareSeatLink() {
  if (navigator.share) {
    navigator.share({ title: "nightcall", url: seatLink.link }).catch(() => {});
  } else {
    navigator.clipboard.writeText(seatLink.link).then(() => toast(t("move.copied"), 2500), () => {});
  }
}

// A phone that died in the game: another gives the seat's name, and waits here until
// the host's screen lets it in (its welcome then brings the seat's token).
function waitToBeLetIn(name) {
  $("#join").hidden = true;
  $("#asking-body").textContent = t("ask.body", { name });
  $("#asking").hidden = false;
}

function hello() {
  if (token) return { as: "player", token };
  return { as: "player", name: pendingName };
}

function start() {
  if (net) { net.reopen(); return; }
  net = connect(code, hello, onMessage, (s) => {
    // A phone that was refused a seat (a taken name) is not offline: it shows no status.
    if (s === "closed") {
      delete document.body.dataset.connection;
      $("#conn").textContent = "";
      return;
    }
    document.body.dataset.connection = s;
    showConnection();
  });
}


$("#join-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("#name").value.trim();
  if (!name) { $("#join-error").textContent = t("err.bad_name"); return; }
  pendingName = name;
  $("#join-error").textContent = "";
  keepAwake();
  start();
});

// --- staying awake, buzzing, announcing ------------------------------------------------
let wakeLock = null;
async function keepAwake() {
  try {
    if ("wakeLock" in navigator && !wakeLock) {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    }
  } catch { /* refused (battery saver, no gesture): the phone may dim */ }
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && me) keepAwake();
});

function announce(text) {
  const el = $("#announce");
  el.textContent = "";
  setTimeout(() => { el.textContent = text; }, 50);  // a change, even for the same words
}

// Every call buzzes every phone (and chimes, if allowed), whoever is called, so
// nobody learns anything from whose phone buzzes.
function alerts(stage) {
  const key = obs ? `${stage}/${obs.clock.night}/${obs.clock.call}` : "";
  const fast = stage === "night" && Boolean(obs.view.fast) && !obs.view.fast.ghost;
  const mine = stage === "night" && !fast && (obs.view.legal || []).length > 0;
  if (stage === "night" && key !== callKey) {
    // The fast night: every phone buzzes and says the same at the round's start.
    callKey = key;
    try { if (navigator.vibrate) navigator.vibrate(180); } catch { /* not allowed */ }
    if (prefs.chime) chime();
    if (fast) announce(t("fast.announce"));
    else if (!mine) announce(t("call.announce"));
  }
  if (mine && key !== turnKey) {
    turnKey = key;
    announce(yourTurn(obs.clock.call, "turn.announce"));
  }
}

// "Seer: your turn"; a group call ("vampires") has no role's name: its sentence, then
// "your turn", so that a German room never reads "Vampires: du bist dran".
function yourTurn(call, key) {
  return hasText(`ev.call.${call}`) ? t("turn.group", { call: callName(call) }) : t(key, { role: roleName(call) });
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      if (msg.role === "asking") { waitToBeLetIn(msg.name); break; }
      $("#asking").hidden = true;
      token = msg.token;
      localStorage.setItem(tokenKey, token);
      me = { seat: msg.seat, name: msg.name };
      $("#join").hidden = true;
      $("#game").hidden = false;
      $("#me").textContent = msg.name;
      $("#who").hidden = false;  // (its dot too: none before there is a name)
      break;
    case "lobby":
      lobby = msg;
      if (me) {  // the host may have moved the seats round the table
        const mine = msg.seats.find((s) => s.name === me.name);
        if (mine) me.seat = mine.seat;
      }
      setRoleNames(msg.settings.role_names);
      setLanguage(msg.settings.language, () => { translatePage(); showConnection(); render(); });
      translatePage();
      showConnection();
      render();
      break;
    case "observation":
      if (!obs || obs.state_id !== msg.state_id) picked = null;
      obs = msg;
      if (obs.view && obs.view.seat !== undefined && me) me.seat = obs.view.seat;
      render();
      break;
    case "next_room":
      // The host started the next game: sit down there under the same name.
      localStorage.setItem(`nightcall:rejoin:${msg.room}`, me ? me.name : "");
      net.close();
      mount($("#main"), h("p", { class: "prompt", "data-testid": "moving" }, t("moving", { room: msg.room })));
      location.href = `/play/${encodeURIComponent(msg.room)}`;
      break;
    case "error":
    case "room_error":
      if (msg.code === "elsewhere") { stepAside(); break; }
      if (msg.code === "bad_token") {
        localStorage.removeItem(tokenKey);
        token = null;
        net.close(); net = null;
      }
      if (!me) {
        $("#asking").hidden = true;
        $("#join").hidden = false;  // (an automatic rejoin that failed: ask for a name)
        if (pendingName && !$("#name").value) $("#name").value = pendingName;
        $("#join-error").textContent = errorText(msg);
        if (net) { net.close(); net = null; }
      } else {
        sent = null;  // (a refused move may be mended at once)
        toast(errorText(msg), 3500);
      }
      break;
  }
}

// A second tap on the same button within a second (a double tap) would reach the
// server as a move on a state already gone, and earn a false "the game moved on". The
// fast night's stage is part of the tap: a werewolf points at its victim again at its
// second stage, with the same choices.
let sent = null;

function act(action) {
  if (!obs) return;
  const fast = obs.view && obs.view.fast ? obs.view.fast.stage : "";
  const key = `${obs.state_id} ${fast} ${JSON.stringify(action)}`;
  if (sent && sent.key === key && Date.now() - sent.at < 1000) return;
  sent = { key, at: Date.now() };
  net.send({ type: "action", action, state_id: obs.state_id });
}

// --- your card as you know it now ---------------------------------------------------------
// From your own events: the card you were dealt, what you know it is now and how you
// know, the cards you looked at, your token and the artifacts on your card.
function cardStory(view, players) {
  const mine = me.seat;
  const deal = view.events.find((e) => e.kind === "deal" && e.seat === mine);
  const dealt = deal ? deal.card : view.role || null;
  const story = { dealt, now: view.role || dealt, known: true, how: null, seen: [], token: null, artifacts: [] };
  let lastSeen = null;
  for (const e of view.events) {
    switch (e.kind) {
      case "saw":
        if (e.seat === mine) {
          if (story.how === null) story.how = t("card.how.looked");  // (the Insomniac)
          story.now = e.card; story.known = true;
        } else {
          lastSeen = e;
          story.seen.push({ where: e.seat !== undefined ? t("card.of", { name: players[e.seat] }) : centerName(e.center), card: e.card });
        }
        break;
      case "became": case "imitate":
        story.now = e.role || e.becomes || story.now;
        if (lastSeen) {
          story.how = t("card.how.copied", { where: lastSeen.seat !== undefined ? t("card.of", { name: players[lastSeen.seat] }) : centerName(lastSeen.center) });
        }
        break;
      case "swapped": {
        const seats = e.seats || (e.seat !== undefined ? [e.seat] : []);
        if (!seats.includes(mine) || e.extra) break;
        if (e.center !== undefined) {
          // The Witch's swap: the center card she just saw is now yours.
          const seen = [...story.seen].reverse().find((x) => x.where === centerName(e.center));
          if (e.seats && seen) { story.now = seen.card; story.known = true; } else story.known = false;
          story.how = t("card.how.swapped_center", { center: centerName(e.center) });
        } else {
          const other = seats[0] === mine ? seats[1] : seats[0];
          story.known = false;
          story.how = other !== undefined ? t("card.how.took", { name: players[other] }) : t("card.how.moved");
        }
        break;
      }
      case "token": story.token = e.token; break;
      case "saw_token": if (e.seat === mine) story.token = e.token; break;
      case "gave_token": if (e.seat === mine) story.token = e.token; break;
      case "artifact": story.artifacts.push(e.artifact); break;
      default: break;
    }
  }
  // Lupus tells the role itself: what the view says wins.
  if (view.role) { story.now = view.role; story.known = true; }
  return story;
}

function renderCard(view, players, compact = false) {
  const s = cardStory(view, players);
  const shownRole = s.known ? s.now : s.dealt;
  const team = teamOf(shownRole);
  const face = [h("small", {}, t("card.yours")),
    roleIcon(shownRole, { cls: "icon card-art" }),
    cardName("strong", s.known ? roleName(s.now) : "?"),
    h("span", { class: "team-line" }, teamLabel(team)),
    s.dealt && (s.now !== s.dealt || !s.known) ? h("span", { class: "card-history", "data-testid": "card-now" },
      t("card.dealt", { role: roleName(s.dealt) }), " · ",
      s.known ? t("card.now", { role: roleName(s.now) }) : t("card.now_unknown"),
      s.how ? ` (${s.how})` : "") : null,
    h("small", { class: "flip-hint" }, t("card.hide"))];
  const back = [h("small", {}, t("card.tap")), roleIcon("card-back", { cls: "icon card-art moon" }),
    h("strong", {}, "?")];
  const parts = [h("button", {
    id: "card", type: "button", class: cardShown ? `card shown team-${team}` : "card",
    "data-testid": "card", "aria-pressed": String(cardShown),
    onclick: () => { cardShown = !cardShown; if (!cardShown) helpShown = false; keepAwake(); render(); },
  }, cardShown ? face : back)];
  if (cardShown) {
    const chips = [];
    if (s.token) chips.push(h("span", { class: "chip", "data-testid": "token" }, tokenIcon(s.token), t("card.token", { token: tokenName(s.token) })));
    for (const a of s.artifacts) chips.push(h("span", { class: "chip", "data-testid": "artifact-chip" }, icon("artifact"), t("card.artifact", { artifact: artifactName(a) })));
    for (const x of s.seen) chips.push(h("span", { class: `chip seen team-${teamOf(x.card)}` }, roleIcon(x.card), `${upFirst(x.where)}: ${roleName(x.card)}`));
    if (chips.length) parts.push(h("div", { class: "chips", "data-testid": "card-extras" }, chips));
    parts.push(h("button", { type: "button", class: "help-button", "data-testid": "help-button",
      "aria-expanded": String(helpShown), "aria-controls": "role-help",
      onclick: () => { helpShown = !helpShown; render(); } },
    icon("help", { cls: "icon tiny" }), helpShown ? t("help.close") : t("help.open")));
    if (helpShown && shownRole) parts.push(renderHelp(shownRole, { id: "role-help" }));
  }
  return h("div", { class: compact ? "card-area compact" : "card-area" }, parts);
}

// "Center card 2: Seer" at the start of a chip.
function upFirst(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function soundToggle() {
  return h("label", { class: "toggle" }, h("input", { type: "checkbox", checked: prefs.chime,
    onchange: (e) => setChime(e.target.checked) }), ` ${t("sound.label")}`);
}

function render() {
  if (!me || !lobby) return;
  const stage = obs ? obs.clock.stage : "lobby";
  document.body.dataset.stage = stage;
  $("#stage").textContent = stageName(stage);
  countdown($("#timer"), obs ? obs.clock.ends_at : null);
  if (!obs) {
    const deck = lobby.settings.roles || [];
    mount($("#main"), h("p", { class: "prompt" }, t("seated")), soundToggle(),
      renderSeats(lobby, me.seat),
      deck.length ? h("section", { class: "panel" }, h("h2", {}, t("lobby.deck")), renderDeck(deck)) : null,
      moveSeat());
    return;
  }
  alerts(stage);
  const view = obs.view;
  const players = view.players || lobby.seats.map((s) => s.name);
  const parts = [];
  if (stage === "over") parts.push(renderVerdict(view, players));
  const day = !["lobby", "night", "dusk", "over"].includes(stage);
  // By day the choice comes first and the card shrinks under it; the end shows it in
  // the verdict.
  const card = stage !== "over" ? renderCard(view, players, day) : null;
  if (!day) parts.push(card);
  if (stage === "dusk") {
    parts.push(h("div", { class: "prompt awake", "data-testid": "dusk" },
      h("p", { class: "call" }, t("dusk.title")), h("p", {}, t("dusk.hint")), soundToggle()));
  }
  if (stage === "night") parts.push(renderNight(view, players));
  const artifacts = view.events.filter((e) => e.kind === "artifact");
  if (artifacts.length && stage !== "night" && stage !== "dusk") {
    // Epic Battle: the artifact on your card, with what it tells you to do.
    parts.push(h("div", { class: "prompt awake", "data-testid": "artifact" }, artifacts.map((e) => [
      h("p", { class: "call" }, icon("artifact", { cls: "icon tiny" }), " ", t("artifact.title", { artifact: artifactName(e.artifact) })),
      h("p", {}, t(`artifact.do.${e.artifact}`))])));
  }
  if (view.ghost) parts.push(h("p", { class: "prompt ghost", "data-testid": "ghost" }, t("ghost")));
  if (day) {
    const [ask, claims] = renderDay(view, players, stage);
    parts.push(ask, card, claims);
  }
  if (stage === "over") {
    if (record === null) {
      record = {};
      fetchRecord(code, (rec) => { record = rec; render(); });
    }
    // Who won and why, then every card face up, then the whole game.
    const end = renderEnd(obs, players, endFolds);
    const said = view.outcome ? end.shift() : null;
    parts.push(replayButton(code, me ? me.seat : null), said, renderFaceup(view, players), end);
  }
  parts.push(renderKnown(obs, stage === "over"));
  if (stage !== "over") parts.push(moveSeat());
  mount($("#main"), parts);
}

function renderNight(view, players) {
  // A ghost has no fast task: the ghosts' sleep screen below, the same on every ghost.
  if (view.fast && !view.fast.ghost) return renderFast(view, players);
  const legal = view.legal || [];
  if (legal.length === 0) {
    return h("div", { class: "prompt sleep", "data-testid": "sleep" },
      roleIcon("card-back", { cls: "icon sleep-moon" }),
      h("p", {}, t("sleep")), h("p", { class: "hint" }, t(view.ghost ? "sleep.ghost" : "sleep.hint")),
      h("p", { class: "hint" }, t("sleep.buzz")));
  }
  const pack = view.pack_picks || null;
  const mine = pack ? pack[String(me.seat)] : undefined;
  // The prompt wakes up (a short zoom) once per call, not at every re-render: a tap
  // on the first name of a pair must not make the buttons jump.
  const key = `${obs.clock.night}/${obs.clock.call}`;
  const fresh = key !== wokenKey;
  wokenKey = key;
  return h("div", { class: fresh ? "prompt awake turn wake" : "prompt awake turn", "data-testid": "choices" },
    h("p", { class: "call" }, roleIcon(obs.clock.call, { cls: "icon tiny" }), " ", yourTurn(obs.clock.call, "turn")),
    pack ? renderPack(view, pack, players) : null,
    renderChoices(legal, players, mine));
}

// The fast night (docs/rulings.md, rules 19-22): every phone shows the same screen,
// whatever the role: one title, the same sentence for each of the two stages, a
// card-sized panel at the second stage (what the first pick showed, or a card back),
// then the same "waiting" screen once done. A role with nothing to do taps a suspect.
function renderFast(view, players) {
  const task = view.fast;
  if (task.done) {
    return h("div", { class: "prompt sleep", "data-testid": "fast-done" },
      roleIcon("card-back", { cls: "icon sleep-moon" }),
      h("p", { class: "call" }, t("fast.title")), h("p", {}, t("fast.waiting")));
  }
  // Lupus' werewolves see where their pack points, and may point again.
  const inside = task.pack_picks ? renderPack(view, task.pack_picks, players)
    : task.seen.length ? h("ul", {}, (task.said || []).filter(Boolean).map((line) => h("li", {}, line)))
      : roleIcon("card-back", { cls: "icon" });
  const panel = task.stage > 0 ? h("div", { class: "fast-glimpse", "data-testid": "fast-glimpse" }, inside) : null;
  return h("div", { class: "prompt awake turn", "data-testid": "fast-task", "data-stage": String(task.stage) },
    h("p", { class: "call" }, t("fast.title")),
    h("p", { class: "hint" }, task.stage === 1 && noCards() ? t("fast.stage.1.nobody") : t(`fast.stage.${task.stage}`)),
    panel,
    renderFastGrid(view, players));
}

// The cards an action names, as grid cells ("s3": seat 3, "c1": center card 1); []
// for an action that names none (skip, "no second card").
function cellsOf(a) {
  if (["look_center", "take_center", "copy_center"].includes(a.kind)) {
    return [a.a, a.b].filter((x) => x !== undefined && x >= 0).map((x) => `c${x}`);
  }
  return [a.a, a.b].filter((x) => x !== undefined && x >= 0).map((x) => `s${x}`);
}

// A game with no center cards (Lupus) taps players, never cards: its "none" is nobody
// (the Harlot "stays home by pointing at nobody"); the one-night games' is "no card".
const noCards = () => !(lobby.settings.center_cards || 0);

let fastSel = [];  // the cells tapped so far for a choice of two cards
let fastKey = "";

// Every phone: one button per seat and per center card, and one button below, the
// same ones whatever the role. A tap that fits none of this phone's choices does
// nothing; a choice of two cards takes two taps.
function renderFastGrid(view, players) {
  const legal = view.legal || [];
  const key = `${obs.state_id}`;
  if (key !== fastKey) { fastKey = key; fastSel = []; }
  // The ruleset's center cards (Lupus has none). Epic's Alpha Wolf card beside them is
  // never chosen by a tap: he swaps it with a player's.
  const centers = lobby.settings.center_cards || 0;
  const same = (x, y) => x.length === y.length && [...x].sort().join() === [...y].sort().join();
  const fits = (cells) => legal.filter((a) => {
    const c = cellsOf(a);
    return c.length >= cells.length && cells.every((x) => c.includes(x));
  });
  const tap = (cell) => {
    if (fastSel.includes(cell)) { fastSel = fastSel.filter((x) => x !== cell); render(); return; }
    const sel = [...fastSel, cell];
    const options = fits(sel);
    if (!options.length) return;  // not one of this phone's choices
    const exact = options.find((a) => same(cellsOf(a), sel));
    if (exact && options.every((a) => cellsOf(a).length === sel.length)) {
      fastSel = [];
      act(exact);
      return;
    }
    fastSel = sel;
    render();
  };
  const cell = (id, label) => h("button", {
    class: fastSel.includes(id) ? "choice picked" : "choice",
    "data-testid": "fast-cell", "data-cell": id,
    "aria-disabled": String(!fits([...fastSel, id]).length && !fastSel.includes(id)),
    onclick: () => tap(id),
  }, label);
  // The dead (Lupus' ghosts, public) are greyed out on every living phone alike.
  const ghosts = view.ghosts || [];
  const seatCell = (name, s) => (ghosts.includes(name)
    ? h("button", { class: "choice ghost", "data-testid": "fast-cell", "data-cell": `s${s}`, disabled: true },
      name, " · ", h("em", {}, t("tag.ghost")))
    : cell(`s${s}`, s === me.seat ? t("pack.you") : name));
  const none = legal.find((a) => cellsOf(a).length === 0);
  return [
    h("div", { class: "choices grid", "data-testid": "fast-grid" },
      players.map(seatCell),
      Array.from({ length: centers }, (_, i) => cell(`c${i}`, upFirst(centerName(i))))),
    h("div", { class: "choices" }, h("button", {
      class: "choice quiet", "data-testid": "fast-none", "aria-disabled": String(!none),
      onclick: () => { if (none) act(none); },
    }, noCards() ? t("fast.nobody") : t("fast.none"))),
  ];
}

// Lupus: the werewolves agree on one victim. Each wolf's pick as it stands (yours
// too); a pick can change until they all point at the same player.
function renderPack(view, pack, players) {
  const wolves = (view.events.filter((e) => e.kind === "wolves").pop() || {}).seats || Object.keys(pack).map(Number);
  return h("div", { class: "pack", "data-testid": "pack" },
    h("p", { class: "hint" }, t("pack.hint")),
    h("ul", { "aria-label": t("pack.title") }, wolves.map((s) => {
      const who = s === me.seat ? t("pack.you") : players[s];
      const target = pack[String(s)];
      return h("li", { "data-testid": "pack-pick", "data-seat": s }, target === undefined
        ? t("pack.none", { name: who }) : t("pack.pick", { name: who, target: players[target] }));
    })));
}

function renderChoices(legal, players, chosen = undefined) {
  const out = [];
  const kinds = [...new Set(legal.filter((a) => PAIRS.has(a.kind)).map((a) => a.kind))];
  for (const kind of kinds) {
    const pairs = legal.filter((a) => a.kind === kind);
    const seats = [...new Set(pairs.flatMap((a) => [a.a, a.b]))].sort((x, y) => x - y);
    const first = picked && picked.kind === kind ? picked.seat : null;
    const fits = (s) => first === null || first === s || pairs.some((a) => (a.a === first && a.b === s) || (a.b === first && a.a === s));
    out.push(h("p", { class: "hint" }, first !== null ? t(`pick.then.${kind}`, { name: players[first] })
      : t(`pick.${kind}`)));
    out.push(h("div", { class: "choices grid" }, seats.map((s) => h("button", {
      class: first === s ? "choice picked" : "choice",
      "data-testid": "pick", "data-kind": kind, disabled: !fits(s),
      onclick: () => {
        if (first === s) { picked = null; render(); return; }
        if (first === null) { picked = { kind, seat: s }; render(); return; }
        const [a, b] = [first, s].sort((x, y) => x - y);
        picked = null;
        act({ kind, a, b });
      },
    }, players[s]))));
  }
  const others = legal.filter((a) => !PAIRS.has(a.kind));
  out.push(h("div", { class: "choices" }, others.map((a) => h("button", {
    class: [a.kind === "skip" || a.kind === "abstain" ? "choice quiet" : "choice",
      chosen !== undefined && a.a === chosen ? "picked" : ""].join(" ").trim(),
    "aria-pressed": chosen !== undefined ? String(a.a === chosen) : null,
    "data-testid": "choice", "data-kind": a.kind,
    onclick: () => act(a),
  }, actionLabel(a, players)))));
  return out;
}

// The day on the phone: [what to do now, the claim form].
function renderDay(view, players, stage) {
  const out = [];
  const legal = view.legal || [];
  if (view.accuser) out.push(h("p", { class: "accuser" }, t("board.accuser", { name: view.accuser })));
  if (stage !== "discussion" && stage !== "defense") {
    const voted = view.voted || [];
    const asks = { vote: t("ask.vote"), accuse: t("ask.accuse"), execute: t("ask.execute") };
    if (legal.length) {
      out.push(h("div", { class: "prompt awake", "data-testid": "vote" },
        h("p", { class: "call" }, asks[stage] || t("ask.other")),
        renderChoices(legal, players)));
    } else if (voted.includes(me.name)) {
      out.push(h("p", { class: "prompt", "data-testid": "voted" }, t("voted")));
    }
  }
  // Lupus: a Suspect or a ghost has no vote to cast; the phone says why it waits.
  const suspects = view.suspects || [];
  const others = suspects.filter((n) => n !== me.name);
  let waiting = null;
  if (suspects.includes(me.name) && (stage === "defense" || stage === "execute")) {
    waiting = t(`wait.suspect_${stage}`, { other: list(others) });
  } else if (view.ghost && stage === "execute") {
    waiting = t("wait.ghost_execute", { names: list(suspects) });
  }
  if (waiting) out.push(h("p", { class: "prompt", "data-testid": "waiting" }, waiting));
  return [out, lobby.settings.talk && !view.ghost ? renderClaims(view, players) : null];
}

function renderClaims(view, players) {
  const roles = [...new Set(view.roles_in_play || [])];
  const ids = lobby.settings.role_ids || [];
  if (!roles.length || !ids.length) return null;
  // Each select remembers its pick: another player's claim re-renders the page.
  const keep = (id, options, first, cls = "", changed = () => {}) => {
    const el = h("select", { id, class: cls, "aria-label": t(`claim.label.${id}`), onchange: (e) => { claim[id] = e.target.value; changed(); } }, options);
    el.value = claim[id] !== undefined ? claim[id] : first;
    return el;
  };
  const roleSelect = (id) => keep(id, roles.map((r) => h("option", { value: ids.indexOf(r) }, roleName(r))), String(ids.indexOf(roles[0])));
  const n = players.length;
  // Positions: every seat (yours is "my card": a Robber saw it, a Drunk swapped it) and the center.
  const posName = (p) => (p === me.seat ? t("claim.my_card") : positionName(players, p));
  const posSelect = (id, first, changed) => keep(id, [...Array(n + 3).keys()]
    .map((p) => h("option", { value: p }, posName(p))), String(first), "pos", changed);
  // A claim this player already made is not said twice (a double tap, or the same
  // form sent again): the table's board would read it twice.
  const mine = (view.events || []).filter((e) => e.kind === "claim" && e.seat === me.seat);
  const already = (kind, a, b) => mine.some((e) => (kind === "claim" ? e.saw === undefined && !e.swapped && e.role === ids[a]
    : kind === "claim_saw" ? e.saw === a && e.role === ids[b] : Boolean(e.swapped) && e.swapped[0] === a && e.swapped[1] === b));
  const send = (kind, a, b) => {
    if (already(kind, Number(a), Number(b))) { toast(t("claim.again"), 3000); return; }
    act(b === undefined ? { kind, a: Number(a) } : { kind, a: Number(a), b: Number(b) });
  };
  // "and" follows the second card picked: Italian "Ada ed Elena", "Ada e Bruno".
  const and = h("span", { "data-testid": "claim-and" });
  const sayAnd = () => { and.textContent = wordBefore("claim.and", posName(Number(swapB.value))); };
  const swapB = posSelect("swap-b", 1, sayAnd);
  sayAnd();
  return h("details", { class: "talk", open: true },
    h("summary", {}, t("talk")),
    h("div", { class: "claim" }, h("span", {}, t("claim.am")), roleSelect("claim-role"),
      h("button", { "data-testid": "claim", onclick: () => send("claim", $("#claim-role").value) }, t("say"))),
    h("div", { class: "claim" }, h("span", {}, t("claim.saw")), posSelect("saw-pos", 0), h("span", {}, t("claim.saw_is")), roleSelect("saw-role"),
      h("button", { "data-testid": "claim-saw", onclick: () => send("claim_saw", $("#saw-pos").value, $("#saw-role").value) }, t("say"))),
    h("div", { class: "claim" }, h("span", {}, t("claim.swapped")), posSelect("swap-a", 0), and, swapB,
      h("button", { "data-testid": "claim-swap", onclick: () => {
        const [a, b] = [Number($("#swap-a").value), Number($("#swap-b").value)].sort((x, y) => x - y);
        if (a !== b) send("claim_swap", a, b);
      } }, t("say"))));
}

// The end, in one glance: won or lost, as what, and why.
function renderVerdict(view, players) {
  const out = view.outcome;
  if (!out) return null;
  const won = out.winners.includes(me.name);
  const cards = finalCards(view);
  const mine = cards[me.seat] || {};
  const role = mine.role || cardStory(view, players).now;
  const dead = out.dead.includes(me.name);
  return h("section", { class: `verdict ${won ? "won" : "lost"} team-${teamOf(role)}`, "data-testid": "verdict" },
    roleIcon(role, { cls: "icon verdict-icon" }),
    h("h2", {}, won ? t("you.won") : t("you.lost")),
    h("p", { class: "as" }, t("you.as", { role: roleName(role) })),
    h("p", {}, dead ? t("you.why_dead", { cause: causeOf(out, me.name) }) : t("you.why_alive")));
}

// The end's cards face up, as on the host's screen: a table without a shared screen sees
// them too.
function renderFaceup(view, players) {
  const center = centerItems(view, record);
  return h("section", { class: "faceup", "data-testid": "faceup" }, h("h2", {}, t("end.cards")),
    h("ol", { class: "seats faceup-grid", "data-testid": "seats" },
      faceupSeats(view, record, players.map((name, seat) => ({ seat, name })))),
    center.length ? [h("h3", { class: "center-title" }, t("end.center")),
      h("ol", { class: "center-cards faceup-grid", "data-testid": "center-cards" }, center)] : null);
}

// Whether the end's folded lists are open, as the player left them (null: not touched).
const endFolds = { timeline: null, known: false };

// Which of the earlier nights in "What you know" the player opened, by night.
const roundsOpen = {};

function renderKnown(obs, over) {
  // Your own card stays under the card (tap to show), not in this list.
  const items = told(obs.view.events, obs.said).filter(([e]) => e.kind !== "deal");
  const lines = items.map(([, line]) => line);
  const all = lines.length ? h("ol", {}, lines.map((l) => h("li", {}, l))) : h("p", { class: "hint" }, t("known.none"));
  if (!over) {
    return h("section", { class: "known", "data-testid": "known" }, h("h2", {}, t("known")),
      lines.length ? knownRounds(items) : all);
  }
  // At the end the whole game above tells the same story: this one, folded, is the
  // player's own view of it ("you looked at ...").
  return h("details", { class: "known fold", "data-testid": "known", open: endFolds.known,
    ontoggle: (e) => { endFolds.known = e.target.open; } },
  h("summary", {}, h("h2", {}, t("you.story"))), all);
}

// A game of many nights (Lupus) tells each night and its day as a round: the rounds
// before the current one fold under their first line ("Night 1 falls."), so the phone
// opens on what is happening now; the numbers run on across the rounds.
function knownRounds(items) {
  const rounds = [];
  items.forEach(([e, line]) => {
    if (e.kind === "night" || !rounds.length) rounds.push([]);
    rounds[rounds.length - 1].push(line);
  });
  let start = 1;
  return rounds.map((lines, i) => {
    const first = start;
    start += lines.length;
    if (i === rounds.length - 1) return h("ol", { start: String(first) }, lines.map((l) => h("li", {}, l)));
    return h("details", { class: "round fold", "data-testid": "known-round", open: !!roundsOpen[i],
      ontoggle: (ev) => { roundsOpen[i] = ev.target.open; } },
    h("summary", {}, lines[0]),
    h("ol", { start: String(first + 1) }, lines.slice(1).map((l) => h("li", {}, l))));
  });
}

// The join form speaks the room's language (the lobby is public); a room that does
// not exist is said at once, before anyone types a name.
const rejoinKey = `nightcall:rejoin:${code}`;
const rejoin = localStorage.getItem(rejoinKey);
localStorage.removeItem(rejoinKey);
fetch(`/api/rooms/${encodeURIComponent(code)}`).then((res) => {
  if (res.status === 404) {
    if (token || rejoin) return null;
    // No room, so no room's language: the one picked on the front page, or the browser's.
    const say = () => {
      translatePage();
      $("#join-form").hidden = true;
      $("#join-error").textContent = t("join.no_room", { code });
      $("#join-back").hidden = false;
    };
    setLanguage(preferredLanguage(), say);
    say();
    return null;
  }
  return res.ok ? res.json() : null;
}).then((info) => {
  // A game in play: a name alone seats nobody, but asks the host (a phone that died).
  if (info && info.status === "playing") $("#join-hint").hidden = false;
  if (info && !lobby) {
    setLanguage(info.settings.language, () => {
      translatePage();
      if (!$("#join-form").hidden) $("#join-error").textContent = $("#join-error").textContent;
    });
  }
}).catch(() => {});

if (clash) {
  $("#clash").hidden = false;
  $("[data-testid=clash-ok]").addEventListener("click", () => { $("#clash").hidden = true; start(); });
} else if (token) start();
else if (rejoin) { pendingName = rejoin; start(); }  // moved here from the last game
else $("#join").hidden = false;
