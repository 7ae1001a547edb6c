// The shared screen (host) and the spectators' page: public information only.
import { h, mount, $, countdown } from "./dom.js";
import { connect, roomCode } from "./net.js";
import { errorText, eventText, roleName, setLanguage, setRoleNames, stageName, t, translatePage } from "./text.js";
import { renderEnd, renderSeats } from "./common.js";
import { isMuted, setMuted, speak } from "./speech.js";

export function runScreen({ host }) {
  const code = roomCode();
  const hostKey = `nightcall:host:${code}`;
  if (host && location.hash.length > 1) {
    localStorage.setItem(hostKey, decodeURIComponent(location.hash.slice(1)));
    history.replaceState(null, "", location.pathname);
  }
  const token = host ? localStorage.getItem(hostKey) : null;
  let lobby = null;
  let obs = null;
  let spoken = "";
  $("#room-code").textContent = code;
  translatePage();
  const mute = $("#mute");
  function showMute() {
    if (!mute) return;
    mute.setAttribute("aria-pressed", String(isMuted()));
    mute.textContent = isMuted() ? t("host.unmute") : t("host.mute");
  }
  if (mute) {
    mute.addEventListener("click", () => { setMuted(!isMuted()); showMute(); });
    showMute();
  }

  const net = connect(code, () => (host ? { as: "host", token } : { as: "spectator" }),
    (msg) => {
      if (msg.type === "lobby") {
        lobby = msg;
        setRoleNames(msg.settings.role_names);
        setLanguage(msg.settings.language, () => { translatePage(); showMute(); render(); });
        translatePage();
        showMute();
      }
      else if (msg.type === "observation") obs = msg;
      else if (msg.type === "next_room") { moveTo(msg); return; }
      else if (msg.type === "error" || msg.type === "room_error") { showError(errorText(msg)); return; }
      else return;
      render();
    }, (s) => { document.body.dataset.connection = s; });

  // The host started the next game: follow it (the host screen with its new token).
  function moveTo(msg) {
    if (host && msg.host_token) localStorage.setItem(`nightcall:host:${msg.room}`, msg.host_token);
    net.close();
    mount($("#main"), h("p", { class: "prompt", "data-testid": "moving" }, t("moving", { room: msg.room })));
    location.href = `/${host ? "host" : "watch"}/${encodeURIComponent(msg.room)}`;
  }

  function showError(text) {
    const el = $("#toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(el._t);
    el._t = setTimeout(() => { el.hidden = true; }, 4000);
  }

  function render() {
    if (!lobby) return;
    const stage = obs ? obs.clock.stage : "lobby";
    document.body.dataset.stage = stage;
    $("#stage").textContent = stageName(stage);
    countdown($("#timer"), obs ? obs.clock.ends_at : null);
    const narration = obs ? obs.clock.narration : "";
    $("#narration").textContent = narration || "";
    const key = obs ? `${stage}/${obs.clock.night}/${obs.clock.call}` : "lobby";
    if (host && narration && key !== spoken) {
      spoken = key;
      speak(narration, lobby.settings.language);
    }
    if (stage === "lobby" || !obs) { mount($("#main"), renderLobby()); return; }
    const view = obs.view;
    const players = view.players;
    const parts = [];
    parts.push(h("p", { class: "deck" }, t("screen.deck", {
      roles: (view.roles_in_play || lobby.settings.roles).map((r) => roleName(r)).join(", ") })));
    if ((stage === "discussion" || stage === "defense") && host) {
      parts.push(h("button", { class: "primary", "data-testid": "open-vote",
        onclick: () => net.send({ type: "advance" }) }, stage === "defense" ? t("host.end_defense") : t("host.open_vote")));
    }
    if (stage === "discussion" && host) parts.push(renderLastChoice(view, players));
    if (["vote", "execute", "day"].includes(stage)) {
      const voted = view.voted || [];
      parts.push(h("p", { class: "voted", "data-testid": "voted-list" },
        t("voted.count", { count: voted.length, total: players.length }), voted.length ? ` (${voted.join(", ")})` : ""));
    }
    if (stage === "over" && host) {
      parts.push(h("button", { class: "primary", "data-testid": "play-again",
        onclick: () => net.send({ type: "play_again" }) }, t("host.play_again")));
    }
    if (stage === "over") parts.push(renderEnd(obs, players));
    const told = view.events.filter((e) => e.kind !== "call")
      .map((e) => eventText(e, players, null)).filter(Boolean);
    if (told.length && stage !== "over") {
      parts.push(h("section", { class: "known", "data-testid": "table" }, h("h2", {}, t("screen.table")),
        h("ol", {}, told.map((l) => h("li", {}, l)))));
    }
    parts.push(renderSeats(lobby, null, view.ghosts || []));
    mount($("#main"), parts);
  }

  // Lupus: two or more died at dawn; the host, as the Master, names the last to die.
  function renderLastChoice(view, players) {
    const events = view.events;
    let at = -1;
    events.forEach((e, i) => { if (e.kind === "dawn") at = i; });
    const dawn = events[at];
    if (!dawn || !dawn.dead || dawn.dead.length < 2) return null;
    const named = events.slice(at + 1).filter((e) => e.kind === "last").pop();
    const last = named ? named.seat : dawn.last;
    return h("div", { class: "prompt", "data-testid": "last-choice" },
      h("p", { class: "call" }, t("host.last.title")),
      h("p", { class: "hint" }, named ? t("host.last.chosen", { name: players[last] })
        : t("host.last.hint", { name: players[last] })),
      h("div", { class: "choices" }, dawn.dead.map((s) => h("button", {
        class: s === last ? "choice picked" : "choice", "data-testid": "last", "data-seat": s,
        onclick: () => net.send({ type: "last_to_die", seat: s }),
      }, players[s]))));
  }

  function renderLobby() {
    const join = lobby.join_url || `${location.origin}/play/${code}`;
    const parts = [
      h("div", { class: "join" },
        h("img", { class: "qr", src: `/api/rooms/${code}/qr.svg`, alt: t("lobby.qr", { url: join }), "data-testid": "qr" }),
        h("div", {}, h("p", {}, t("lobby.scan")), h("p", { class: "url" }, join),
          h("p", {}, t("lobby.code")), h("p", { class: "code", "data-testid": "code" }, code))),
      h("h2", {}, t("lobby.seats", { title: lobby.title, taken: lobby.seats.length, seats: lobby.settings.seats })),
      renderSeats(lobby),
    ];
    if (host) {
      parts.push(h("div", { class: "buttons" },
        h("button", { onclick: () => net.send({ type: "add_bot" }) }, t("host.add_bot")),
        h("button", { class: "primary", "data-testid": "deal",
          onclick: () => net.send({ type: "start" }) },
        lobby.seats.length < lobby.settings.seats ? t("host.deal_bots") : t("host.deal"))));
      if (lobby.seats.length) {
        parts.push(h("div", { class: "kick" }, `${t("lobby.kick")} `, lobby.seats.map((s) => h("button", {
          class: "quiet", onclick: () => net.send({ type: "kick", seat: s.seat }),
        }, s.name))));
      }
    } else {
      parts.push(h("p", { class: "hint" }, t("watching")));
    }
    return parts;
  }
}
