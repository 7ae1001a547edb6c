// The player's phone: take a seat, see your card, act when called, claim, vote.
import { h, mount, $, countdown } from "./dom.js";
import { connect, roomCode } from "./net.js";
import { actionLabel, artifactName, errorText, eventText, positionName, roleName, setLanguage, setRoleNames, stageName, t, translatePage } from "./text.js";
import { renderEnd, renderSeats } from "./common.js";

const code = roomCode();
const tokenKey = `nightcall:seat:${code}`;
let token = localStorage.getItem(tokenKey);
let pendingName = null;
let me = null;        // {seat, name}
let lobby = null;
let obs = null;
let picked = [];      // first seat tapped for a two-seat choice
let cardShown = false;
let net = null;

$("#room-code").textContent = code;
translatePage();

function hello() {
  if (token) return { as: "player", token };
  return { as: "player", name: pendingName };
}

function start() {
  if (net) { net.reopen(); return; }
  net = connect(code, hello, onMessage, (s) => {
    document.body.dataset.connection = s;
  });
}

$("#join-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("#name").value.trim();
  if (!name) return;
  pendingName = name;
  $("#join-error").textContent = "";
  start();
});

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      token = msg.token;
      localStorage.setItem(tokenKey, token);
      me = { seat: msg.seat, name: msg.name };
      $("#join").hidden = true;
      $("#game").hidden = false;
      $("#me").textContent = msg.name;
      break;
    case "lobby":
      lobby = msg;
      setRoleNames(msg.settings.role_names);
      setLanguage(msg.settings.language, () => { translatePage(); render(); });
      translatePage();
      render();
      break;
    case "observation":
      if (!obs || obs.state_id !== msg.state_id) picked = [];
      obs = msg;
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
      if (msg.code === "bad_token") {
        localStorage.removeItem(tokenKey);
        token = null;
        net.close(); net = null;
      }
      if (!me) {
        $("#join").hidden = false;  // (an automatic rejoin that failed: ask for a name)
        if (pendingName && !$("#name").value) $("#name").value = pendingName;
        $("#join-error").textContent = errorText(msg);
        net.close(); net = null;
      } else {
        showError(errorText(msg));
      }
      break;
  }
}

function showError(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(el._t);
  el._t = setTimeout(() => { el.hidden = true; }, 3500);
}

function act(action) {
  if (!obs) return;
  net.send({ type: "action", action, state_id: obs.state_id });
}

function myCard(view) {
  const deal = view.events.find((e) => e.kind === "deal" && e.seat === me.seat);
  if (view.role) return view.role;  // Lupus: the role now (the Mythomaniac may change)
  return deal ? deal.card : null;
}

function render() {
  if (!me || !lobby) return;
  const stage = obs ? obs.clock.stage : "lobby";
  document.body.dataset.stage = stage;
  $("#stage").textContent = stageName(stage);
  countdown($("#timer"), obs ? obs.clock.ends_at : null);
  if (!obs) {
    mount($("#main"), h("p", { class: "hint" }, t("seated")),
      renderSeats(lobby, me.seat));
    return;
  }
  const view = obs.view;
  const players = view.players || lobby.seats.map((s) => s.name);
  const card = myCard(view);
  const parts = [];
  parts.push(h("button", {
    id: "card", class: cardShown ? "card shown" : "card", "data-testid": "card",
    onclick: () => { cardShown = !cardShown; render(); },
  }, cardShown ? [h("small", {}, t("card.yours")), h("strong", {}, roleName(card))]
    : [h("small", {}, t("card.tap")), h("strong", {}, "?")]));

  if (stage === "night") parts.push(renderNight(view, players));
  const artifacts = view.events.filter((e) => e.kind === "artifact");
  if (artifacts.length && stage !== "night") {
    // Epic Battle: the artifact on your card, with what it tells you to do.
    parts.push(h("div", { class: "prompt awake", "data-testid": "artifact" }, artifacts.map((e) => [
      h("p", { class: "call" }, t("artifact.title", { artifact: artifactName(e.artifact) })),
      h("p", {}, t(`artifact.do.${e.artifact}`))])));
  }
  if (view.ghost) parts.push(h("p", { class: "prompt ghost", "data-testid": "ghost" }, t("ghost")));
  if (!["lobby", "night", "over"].includes(stage)) parts.push(renderDay(view, players, stage));
  if (stage === "over") parts.push(renderEnd(obs, players));
  parts.push(renderKnown(view, players));
  mount($("#main"), parts);
}

function renderNight(view, players) {
  const legal = view.legal || [];
  if (legal.length === 0) {
    return h("div", { class: "prompt sleep", "data-testid": "sleep" },
      h("p", {}, t("sleep")), h("p", { class: "hint" }, t("sleep.hint")));
  }
  return h("div", { class: "prompt awake", "data-testid": "choices" },
    h("p", { class: "call" }, t("turn", { role: roleName(obs.clock.call) })),
    renderChoices(legal, players));
}

function renderChoices(legal, players) {
  const pairs = legal.filter((a) => a.kind === "swap_two");
  const others = legal.filter((a) => a.kind !== "swap_two");
  const out = [];
  if (pairs.length) {
    const seats = [...new Set(pairs.flatMap((a) => [a.a, a.b]))].sort((x, y) => x - y);
    out.push(h("p", { class: "hint" }, picked.length ? t("swap.then", { name: players[picked[0]] }) : t("swap.pick")));
    out.push(h("div", { class: "choices grid" }, seats.map((s) => h("button", {
      class: picked.includes(s) ? "choice picked" : "choice",
      "data-testid": "pick",
      onclick: () => {
        if (picked.includes(s)) { picked = []; render(); return; }
        if (picked.length === 0) { picked = [s]; render(); return; }
        const [a, b] = [picked[0], s].sort((x, y) => x - y);
        picked = [];
        act({ kind: "swap_two", a, b });
      },
    }, players[s]))));
  }
  out.push(h("div", { class: "choices" }, others.map((a) => h("button", {
    class: a.kind === "skip" || a.kind === "abstain" ? "choice quiet" : "choice",
    "data-testid": "choice", "data-kind": a.kind,
    onclick: () => act(a),
  }, actionLabel(a, players)))));
  return out;
}

function renderDay(view, players, stage) {
  const out = [];
  const legal = view.legal || [];
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
  if (lobby.settings.talk && !view.ghost) out.push(renderClaims(view, players));
  return out;
}

function renderClaims(view, players) {
  const roles = [...new Set(view.roles_in_play || [])];
  const ids = lobby.settings.role_ids || [];
  if (!roles.length || !ids.length) return null;
  const roleSelect = (id) => h("select", { id }, roles.map((r) => h("option", { value: ids.indexOf(r) }, roleName(r))));
  const n = players.length;
  // Positions: every seat (yours is "my card": a Robber saw it, a Drunk swapped it) and the center.
  const posName = (p) => (p === me.seat ? t("claim.my_card") : positionName(players, p));
  const posSelect = (id) => h("select", { id }, [...Array(n + 3).keys()]
    .map((p) => h("option", { value: p }, posName(p))));
  const send = (kind, a, b) => act(b === undefined ? { kind, a: Number(a) } : { kind, a: Number(a), b: Number(b) });
  return h("details", { class: "talk", open: true },
    h("summary", {}, t("talk")),
    h("div", { class: "claim" }, t("claim.am"), " ", roleSelect("claim-role"),
      h("button", { "data-testid": "claim", onclick: () => send("claim", $("#claim-role").value) }, t("say"))),
    h("div", { class: "claim" }, t("claim.saw"), " ", posSelect("saw-pos"), ` ${t("claim.saw_is")} `, roleSelect("saw-role"),
      h("button", { onclick: () => send("claim_saw", $("#saw-pos").value, $("#saw-role").value) }, t("say"))),
    h("div", { class: "claim" }, t("claim.swapped"), " ", posSelect("swap-a"), ` ${t("claim.and")} `, posSelect("swap-b"),
      h("button", { onclick: () => {
        const [a, b] = [Number($("#swap-a").value), Number($("#swap-b").value)].sort((x, y) => x - y);
        if (a !== b) send("claim_swap", a, b);
      } }, t("say"))));
}

function renderKnown(view, players) {
  // Your own card stays under the card (tap to show), not in this list.
  const lines = view.events.filter((e) => e.kind !== "deal")
    .map((e) => eventText(e, players, me.seat)).filter(Boolean);
  return h("section", { class: "known", "data-testid": "known" },
    h("h2", {}, t("known")),
    h("ol", {}, lines.map((l) => h("li", {}, l))));
}

// The join form already speaks the room's language (the lobby is public).
fetch(`/api/rooms/${encodeURIComponent(code)}`).then((res) => (res.ok ? res.json() : null))
  .then((info) => { if (info && !lobby) setLanguage(info.settings.language, translatePage); })
  .catch(() => {});

const rejoinKey = `nightcall:rejoin:${code}`;
const rejoin = localStorage.getItem(rejoinKey);
localStorage.removeItem(rejoinKey);
if (token) start();
else if (rejoin) { pendingName = rejoin; start(); }  // moved here from the last game
else $("#join").hidden = false;
