// The shared screen (host) and the spectators' page: public information only.
// Read from across a room: the stage, the call and the timer big; the day board
// newest first; the table as a circle in the order that counts.
import { h, mount, $, countdown, toast } from "./dom.js";
import { connect, roomCode } from "./net.js";
import { callName, errorText, hasText, list, scenarioName, setLanguage, setRoleNames, showConnection, stageName, t, told, translatePage } from "./text.js";
import { centerItems, faceupSeats, fetchRecord, fitCircles, fitWord, renderCircle, renderEnd } from "./common.js";
import { chooseVoice, chosenVoice, isMuted, onVoices, setMuted, speak, voicesFor } from "./speech.js";
import { loadRulesets, renderDeck, roleIcon, useRuleset } from "./roles.js";
import { replayButton } from "./replay.js";
import { chime, prefs, resumeOnTap, setAmbience, setChime, setVolume } from "./sound.js";

// The kinds of event the day board shows (the night's own events are private or dull).
const BOARD = new Set(["claim", "accuse", "accusation", "suspects", "executed", "dawn", "died",
  "votes", "last", "revealed", "night"]);

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
  let info = null;      // this ruleset's public facts (teams, decks, scenarios)
  let record = null;    // the game record, fetched once the game is over
  let spoken = "";
  let chimed = "";
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
    setupSound();
  }
  loadRulesets().then((all) => { rulesetsLoaded(all); });

  function rulesetsLoaded(all) {
    if (!lobby) { setTimeout(() => rulesetsLoaded(all), 100); return; }
    info = all.find((r) => r.id === lobby.ruleset) || null;
    useRuleset(info);
    render();
  }

  const net = connect(code, () => (host ? { as: "host", token } : { as: "spectator" }),
    (msg) => {
      if (msg.type === "lobby") {
        lobby = msg;
        setRoleNames(msg.settings.role_names);
        setLanguage(msg.settings.language, () => {
          translatePage(); showMute(); showVoices(); showConnection(); render();
        });
        translatePage();
        showMute();
        showVoices();
        showConnection();
      }
      else if (msg.type === "observation") obs = msg;
      else if (msg.type === "next_room") { moveTo(msg); return; }
      else if (msg.type === "error" || msg.type === "room_error") { toast(errorText(msg), 4000); return; }
      else return;
      render();
    }, (s) => {
      document.body.dataset.connection = s;
      showConnection();
    });

  // The host started the next game: follow it (the host screen with its new token).
  function moveTo(msg) {
    if (host && msg.host_token) localStorage.setItem(`nightcall:host:${msg.room}`, msg.host_token);
    net.close();
    mount($("#main"), h("p", { class: "prompt", "data-testid": "moving" }, t("moving", { room: msg.room })));
    location.href = `/${host ? "host" : "watch"}/${encodeURIComponent(msg.room)}`;
  }

  // --- sound and voice (host only) ------------------------------------------------
  function setupSound() {
    const amb = $("#ambience");
    const bell = $("#chime");
    const vol = $("#volume");
    amb.checked = prefs.ambience;
    bell.checked = prefs.chime;
    vol.value = String(Math.round(prefs.volume * 100));
    amb.addEventListener("change", () => setAmbience(amb.checked));
    bell.addEventListener("change", () => setChime(bell.checked));
    vol.addEventListener("input", () => setVolume(Number(vol.value) / 100));
    $("#voice").addEventListener("change", () => {
      if (lobby) chooseVoice(lobby.settings.language, $("#voice").value);
      showVoices();
    });
    $("#voice-test").addEventListener("click", () => {
      if (lobby) speak(t("host.voice_line"), lobby.settings.language, { force: true });
    });
    onVoices(showVoices);
    resumeOnTap();
  }

  function showVoices() {
    const select = $("#voice");
    if (!select || !lobby) return;
    const lang = lobby.settings.language;
    const voices = voicesFor(lang);
    const chosen = chosenVoice(lang);
    mount(select, voices.map((v) => h("option", { value: v.name, selected: chosen && v.name === chosen.name }, `${v.name} (${v.lang})`)));
    select.hidden = voices.length === 0;
    $("#voice-test").hidden = voices.length === 0;
    $("#voice-status").textContent = chosen ? t("host.voice_best", { name: chosen.name }) : t("host.voice_none");
  }

  // --- rendering ------------------------------------------------------------------
  function render() {
    if (!lobby) return;
    if (host) drawAsks();
    draw();
    fit();
    startRoll();
  }

  // A TV cannot scroll: on a wide screen, drop what the phones show anyway (see
  // app.css, body[data-fit]) until the stage fits the window, one step at a time.
  const wide = matchMedia("(min-width: 60rem)");
  function fit() {
    const body = document.body;
    delete body.dataset.fit;
    fitWords();
    fitOutcome();
    if (!wide.matches) return;
    for (let level = 1; level <= 4 && document.documentElement.scrollHeight > innerHeight; level++) {
      body.dataset.fit = String(level);
      fitWords();
    }
  }

  // Every word whole: the seats' names (fitCircles), the deck's and the cards' role
  // names ("Unruhestifterin" in a narrow column, "Dorfbewohner" on a small card) get
  // smaller rather than run past their panel or break inside.
  function fitWords() {
    fitCircles();
    for (const el of document.querySelectorAll(".deck-text b")) fitWord(el, 0.75);
    for (const el of document.querySelectorAll(".faceup-grid .mini-card > span")) fitWord(el, 0.6);
    for (const el of document.querySelectorAll(".faceup-grid li > .name")) fitWord(el, 0.7, true);
  }

  // The end on a wide screen: who won and why, whole in its column (a long Lupus or Epic
  // explanation in smaller letters); only what is longer still rolls inside its box.
  // (still too long at 80 %: its column takes a third more of the width from the cards',
  // then two thirds more)
  function fitOutcome() {
    const box = document.querySelector(".end-grid .outcome");
    if (!box) return;
    const grid = box.closest(".end-grid");
    grid.style.gridTemplateColumns = "";
    const shrink = (least) => {
      box.style.fontSize = "";
      for (let size = 0.95; size >= least && box.scrollHeight > box.clientHeight + 1; size -= 0.05) {
        box.style.fontSize = `${size.toFixed(2)}em`;
      }
    };
    shrink(0.8);
    if (box.scrollHeight <= box.clientHeight + 1 || !wide.matches) return;
    const cols = getComputedStyle(grid).gridTemplateColumns.split(" ").map(parseFloat);
    if (cols.length !== 3 || cols.some((c) => !(c > 0))) return;
    const [words, cards, story] = cols;
    for (const more of [0.35, 0.7]) {
      grid.style.gridTemplateColumns = `minmax(0, ${words * (1 + more)}fr) minmax(0, ${cards - words * more}fr) minmax(0, ${story}fr)`;
      shrink(0.7);
      if (box.scrollHeight <= box.clientHeight + 1) return;
    }
  }
  addEventListener("resize", () => { fit(); startRoll(); });
  // (the "keep this table" panel arrives on its own, after the first render, and
  // fills in later still)
  new MutationObserver(fit).observe($("main"), { childList: true, subtree: true });

  // The end on a TV: a column longer than the screen rolls slowly down, rests at the
  // bottom and starts again from the top, so the room reads all of it with no mouse. A
  // hand in a column (a pointer moving, a wheel, a touch, a key) holds it for a while; with
  // reduced motion, no roll.
  const still = matchMedia("(prefers-reduced-motion: reduce)");
  const ROLL_SPEED = 30;  // px a second: about a line a second
  const REST = 5000;      // ms at the top, at the bottom, and after a hand in the column
  const rolls = new WeakMap();
  let handAt = -Infinity;
  let handIn = null;
  for (const kind of ["pointermove", "pointerdown", "wheel", "touchstart", "keydown"]) {
    addEventListener(kind, (e) => { handAt = performance.now(); handIn = e.target; }, { passive: true });
  }
  let rolling = false;
  let rolledAt = 0;
  // (the loop runs only while there may be something to roll: a wide screen's end)
  function startRoll() {
    if (rolling || document.body.dataset.stage !== "over" || !wide.matches) return;
    rolling = true;
    rolledAt = 0;
    requestAnimationFrame(roll);
  }
  function roll(now) {
    if (document.body.dataset.stage !== "over" || !wide.matches) { rolling = false; return; }
    const dt = rolledAt ? Math.min(now - rolledAt, 100) : 0;
    rolledAt = now;
    if (!still.matches) {
      for (const el of document.querySelectorAll(".end-grid > *, .end-grid .outcome, .end-grid .timeline ol")) rollOne(el, now, dt);
    }
    requestAnimationFrame(roll);
  }
  function rollOne(el, now, dt) {
    const end = el.scrollHeight - el.clientHeight;
    let r = rolls.get(el);
    if (!r) { r = { pos: el.scrollTop, until: now + REST }; rolls.set(el, r); }
    if (end <= 1) return;
    // (someone scrolled it, or has a hand in it: it waits)
    const touched = now - handAt < REST && handIn instanceof Node && el.contains(handIn);
    if (touched || Math.abs(el.scrollTop - Math.round(r.pos)) > 2) {
      r.pos = el.scrollTop;
      r.until = now + REST;
      return;
    }
    if (now < r.until) return;
    if (r.pos >= end) {  // rested at the bottom: back to the top, and rest there
      r.pos = 0;
      r.until = now + REST;
    } else {
      r.pos = Math.min(end, r.pos + ROLL_SPEED * dt / 1000);
      if (r.pos >= end) r.until = now + REST;
    }
    el.scrollTop = r.pos;
  }

  // A phone asks to play a seat whose phone died (it gave the seat's name): only the
  // host lets it in, above whatever the stage shows.
  function drawAsks() {
    let box = $("#asks");
    if (!box) {
      box = h("div", { id: "asks", "data-testid": "asks" });
      $("#main").before(box);
    }
    const answer = (seat, yes) => () => net.send({ type: "let_in", seat, yes });
    mount(box, lobby.seats.filter((s) => s.asking).map((s) => h("section", {
      class: "panel ask", role: "alert", "data-testid": "ask", "data-seat": s.seat },
    h("h2", {}, t("ask.host_title", { name: s.name })),
    h("p", {}, t("ask.host_body", { name: s.name })),
    h("div", { class: "buttons" },
      h("button", { class: "primary", "data-testid": "let-in", onclick: answer(s.seat, true) }, t("ask.yes")),
      h("button", { "data-testid": "keep-out", onclick: answer(s.seat, false) }, t("ask.no"))))));
  }

  function draw() {
    const stage = obs ? obs.clock.stage : "lobby";
    document.body.dataset.stage = stage;
    // (the shared screen speaks to the whole table: "Look at your cards")
    $("#stage").textContent = hasText(`stage.${stage}.host`) ? t(`stage.${stage}.host`) : stageName(stage);
    countdown($("#timer"), obs ? obs.clock.ends_at : null);
    const narration = obs ? obs.clock.narration : "";
    $("#narration").textContent = narration || "";
    const key = obs ? `${stage}/${obs.clock.night}/${obs.clock.call}` : "lobby";
    if (host && narration && key !== spoken) {
      spoken = key;
      speak(narration, lobby.settings.language);
    }
    if (host && stage === "night" && key !== chimed) {
      chimed = key;
      if (prefs.chime) chime();
    }
    if (stage === "lobby" || !obs) { mount($("#main"), renderLobby()); return; }
    const view = obs.view;
    if (stage === "over") { mount($("#main"), renderOver(view)); return; }
    if (stage === "night" || stage === "dusk") { mount($("#main"), renderNight(view)); return; }
    mount($("#main"), renderDay(view, stage));
  }

  function deckNow(view) {
    return (view && view.roles_in_play) || lobby.settings.roles || [];
  }

  // The room's named scenario (Epic Battle), or null.
  function lobbyScenario() {
    return (info && lobby.settings.scenario && info.scenarios.find((s) => s.id === lobby.settings.scenario)) || null;
  }

  // The deck the room will deal: its own roles, the scenario's, or the recommended one.
  function lobbyDeck() {
    if (lobby.settings.roles && lobby.settings.roles.length) return lobby.settings.roles;
    if (!info) return [];
    const n = String(Math.max(lobby.seats.length, lobby.settings.seats));
    const scen = lobbyScenario();
    if (scen) return (scen.decks || {})[n] || [];
    return info.decks[n] || [];
  }

  function renderLobby() {
    const join = lobby.join_url || `${location.origin}/play/${code}`;
    const taken = lobby.seats.length;
    const controls = host ? h("div", { class: "buttons lobby-actions" },
      h("button", { class: "primary big", "data-testid": "deal",
        onclick: () => net.send({ type: "start" }) },
      taken < lobby.settings.seats ? t("host.deal_bots") : t("host.deal")),
      h("button", { disabled: taken >= lobby.settings.seats, onclick: () => net.send({ type: "add_bot" }) }, t("host.add_bot")))
      : h("p", { class: "hint" }, t("watching"));
    const kick = host && taken ? h("div", { class: "kick" }, `${t("lobby.kick")} `, lobby.seats.map((s) => h("button", {
      class: "quiet", onclick: () => net.send({ type: "kick", seat: s.seat }),
    }, s.name))) : null;
    const deck = lobbyDeck();
    const scen = lobbyScenario();
    return h("div", { class: "lobby-grid" },
      h("section", { class: "panel join" },
        h("img", { class: "qr", src: `/api/rooms/${code}/qr.svg`, alt: t("lobby.qr", { url: join }), "data-testid": "qr" }),
        h("div", {}, h("p", {}, t("lobby.scan")), h("p", { class: "url" }, join),
          h("p", {}, t("lobby.code")), h("p", { class: "code", "data-testid": "code" }, code))),
      h("section", { class: "panel seating" },
        h("h2", {}, t("lobby.seats", { title: lobby.title, taken, seats: lobby.settings.seats })),
        controls,
        renderCircle(lobby, { onArrange: host ? (order) => net.send({ type: "arrange", order }) : null }),
        // (the seats' order decides who accuses first where the day has accusations and a
        // defense, as in Lupus; elsewhere it only makes the circle match the table)
        host && taken > 1 ? h("p", { class: "hint", "data-testid": "order-hint" },
          t(info && info.defense_seconds ? "lobby.order_hint" : "lobby.order_hint_circle")) : null),
      // (the seats to free beside the deck, not under the circle: seventeen long names
      // there left the circle too small for its seats)
      h("div", { class: "lobby-side" },
        deck.length ? h("section", { class: "panel deck-panel" }, h("h2", {}, t("lobby.deck")),
          scen ? h("p", { class: "scenario-line", "data-testid": "lobby-scenario" }, t("lobby.scenario", { name: scenarioName(scen) })) : null,
          renderDeck(deck)) : null,
        kick ? h("section", { class: "panel" }, kick) : null));
  }

  function renderNight(view) {
    const call = obs.clock.call;
    return h("div", { class: "night-grid" },
      h("div", { class: "night-call", "data-testid": "call" },
        call ? roleIcon(call, { cls: "icon huge" }) : roleIcon("card-back", { cls: "icon huge moon" }),
        call ? h("p", { class: "call-name" }, callName(call)) : null),
      h("div", {}, h("section", { class: "panel" }, h("h2", {}, t("lobby.deck")), renderDeck(deckNow(view), { testid: "deck-now" })),
        renderBoard(view)),
      renderCircle(lobby, { ghosts: view.ghosts || [] }));
  }

  // The day's talk, accusations and deaths, newest first (on day 3 the first line is day 3).
  function renderBoard(view) {
    const lines = told(view.events, obs.said).filter(([e]) => BOARD.has(e.kind))
      .map(([, line]) => line).reverse();
    if (!lines.length) return null;
    return h("section", { class: "board", "data-testid": "table" },
      h("h2", {}, t("board.title")),
      h("ol", {}, lines.map((l, i) => h("li", { class: i < 3 ? "fresh" : "" }, l))));
  }

  function voters(view, stage) {
    if (stage === "execute") return (view.alive || []).filter((n) => !(view.suspects || []).includes(n));
    if (stage === "accuse") return view.accusation_order || view.players;
    return view.players;
  }

  function renderDay(view, stage) {
    const players = view.players;
    const side = [];
    if ((stage === "discussion" || stage === "defense") && host) {
      side.push(h("button", { class: "primary big", "data-testid": "open-vote",
        onclick: () => net.send({ type: "advance" }) }, stage === "defense" ? t("host.end_defense") : t("host.open_vote")));
      side.push(h("div", { class: "buttons" },
        h("button", { "data-testid": "pause", "aria-pressed": String(!obs.clock.ends_at),
          onclick: () => net.send({ type: "pause" }) }, obs.clock.ends_at ? t("host.pause") : t("host.resume")),
        h("button", { "data-testid": "extend", onclick: () => net.send({ type: "extend" }) }, t("host.extend"))));
    }
    if (stage === "discussion" && host) side.push(renderLastChoice(view, players));
    if (view.accuser) side.push(h("p", { class: "accuser", "data-testid": "accuser" }, t("board.accuser", { name: view.accuser })));
    if (view.suspects && view.suspects.length && ["defense", "execute"].includes(stage)) {
      side.push(h("div", { class: "suspects", "data-testid": "suspects" }, h("h2", {}, t("board.suspects")),
        h("p", { class: "big-names" }, list(view.suspects))));
    }
    if (["vote", "execute", "day"].includes(stage)) {
      const voted = view.voted || [];
      const total = voters(view, stage).length;
      side.push(h("div", { class: "vote-count" },
        h("p", { class: "count", "data-testid": "voted-list" },
          t("voted.count", { count: voted.length, total }), voted.length ? ` (${voted.join(", ")})` : ""),
        h("progress", { max: total, value: voted.length, "aria-label": t("board.voted") })));
    }
    return h("div", { class: "day-grid" },
      h("div", {}, renderBoard(view) || h("section", { class: "board", "data-testid": "table" }, h("h2", {}, t("board.title")))),
      h("div", { class: "day-side" }, side,
        // What may be at the table, for the talk: the deck with what each role does.
        h("section", { class: "panel deck-panel" }, h("h2", {}, t("lobby.deck")), renderDeck(deckNow(view), { testid: "deck-now" }))),
      renderCircle(lobby, { ghosts: view.ghosts || [], mark: view.accuser,
        suspects: view.suspects || [] }));
  }

  function renderOver(view) {
    if (record === null) {  // (public once the game is over: the cards as dealt)
      record = {};
      fetchRecord(code, (rec) => { record = rec; render(); });
    }
    const parts = [];
    if (host) {
      parts.push(h("button", { class: "primary big", "data-testid": "play-again",
        onclick: () => net.send({ type: "play_again" }) }, t("host.play_again")));
    }
    parts.push(replayButton(code, null, { tv: host }));
    // (the whole game, in the grid too: a TV shows it as a third column of its own)
    const cols = faceupColumns(lobby.seats.length);
    const tv = tvColumns(lobby.seats.length);
    const grid = h("div", { class: `end-grid${cols === 4 ? " four" : ""}${tv ? " tv" : ""}` },
      // (a long explanation rolls in its column: keyboard users can scroll it too)
      h("div", { class: "end-words", tabindex: "0" }, renderEnd(obs, view.players)[0] || null),
      h("section", { class: "faceup", "data-testid": "faceup", tabindex: "0" }, h("h2", {}, t("end.cards")),
        faceupList(cols, faceupSeats(view, record, lobby.seats)), centerCards(view, record, cols)),
      // (on a TV the story scrolls inside its panel: keyboard users reach it too)
      // (the whole game's list scrolls inside its box: so does its focus)
      renderEnd(obs, view.players).slice(1).map((el) => {
        el.tabIndex = 0;
        const ol = el.querySelector("ol");
        if (ol) ol.tabIndex = 0;
        return el;
      }));
    if (tv) grid.style.setProperty("--tv-cols", String(tv));  // (CSSOM: the CSP refuses style="")
    parts.push(grid);
    return parts;
  }

  // A wide TV (app.css, .end-grid.tv) gives the cards more of its width: nine seats and
  // more in two or three rows (five, six or eight to a row), so that every card and the
  // center below them show at once; 0 keeps faceupColumns' grid.
  function tvColumns(count) {
    return count < 9 ? 0 : count <= 10 ? 5 : count <= 18 ? 6 : 8;
  }

  // How many columns the face-up cards take on a TV: up to twelve cards, as many as
  // fill the rows evenly; more roll in an automatic grid (0). Four columns widen the
  // cards' share of the end screen (app.css, .faceup-grid.by-count, .end-grid.four).
  function faceupColumns(count) {
    return count <= 4 ? count : count <= 6 ? 3 : count <= 12 ? 4 : 0;
  }

  function faceupList(cols, items, attrs = { class: "seats", "data-testid": "seats" }) {
    const list = h("ol", { ...attrs, class: `${attrs.class} faceup-grid${cols ? " by-count" : ""}` }, items);
    if (cols) list.style.setProperty("--cols", String(cols));  // (CSSOM: the CSP refuses style="")
    return list;
  }

  // The cards nobody holds, in the seats' columns (four beside three seats share a row).
  function centerCards(view, record, cols) {
    const items = centerItems(view, record);
    if (!items.length) return null;
    return [h("h3", { class: "center-title" }, t("end.center")),
      faceupList(cols && Math.max(cols, items.length), items,
        { class: "center-cards", "data-testid": "center-cards" })];
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
}
