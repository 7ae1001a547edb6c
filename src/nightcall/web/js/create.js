// The front page: create a room (host) or type a room code (player). There is no
// room yet, so the page speaks the browser's language (or the one picked here, kept
// for the next visit), and a new room starts in that language too.
import { h, mount, $ } from "./dom.js";
import { LANGUAGES, PICKED, currentLanguage, deckWords, errorText, fitPlayers, hasText, playersLine, preferredLanguage, roleName, scenarioName, setLanguage, setRoleNames, t, translatePage } from "./text.js";
import { loadRulesets, renderDeck, roleIcon, useRuleset } from "./roles.js";

let rulesets = [];

function useLanguage(lang) {
  $("#page-language").value = lang;
  $("#language").value = lang;  // the new room's language follows the page's
  setLanguage(lang, () => { translatePage(); refresh(); });
  translatePage();
  refresh();
}

$("#page-language").addEventListener("change", () => {
  const lang = $("#page-language").value;
  try { localStorage.setItem(PICKED, lang); } catch { /* private mode: not remembered */ }
  useLanguage(lang);
});

async function load() {
  rulesets = await loadRulesets();
  mount($("#ruleset"), rulesets.map((r) => h("option", { value: r.id }, r.title)));
  $("#ruleset").addEventListener("change", refresh);
  $("#seats").addEventListener("change", refresh);
  $("#deck-mode").addEventListener("change", refresh);
  useLanguage(preferredLanguage());
}

// An option's label: our words when we have them, else its id made readable.
function optionName(id) {
  const label = t(`option.${id}`);
  return label === `option.${id}` ? id.replace(/_/g, " ") : label;
}

function current() { return rulesets.find((r) => r.id === $("#ruleset").value) || rulesets[0]; }

function refresh() {
  const r = current();
  if (!r) return;
  // Role names in the page's language, when the server lists them (else readable ids).
  setRoleNames(r.role_names ? r.role_names[currentLanguage()] : null);
  useRuleset(r);
  const seats = $("#seats");
  seats.min = r.min_players; seats.max = r.max_players;
  const typed = Number(seats.value) || 5;
  const n = fitPlayers(r, typed);
  seats.value = n;
  $("#seats-hint").textContent = playersLine(r, n, n !== typed, "front.seats_range");
  const scenario = $("#scenario").value;  // kept across a rebuild when it still fits
  const fitting = r.scenarios.filter((s) => !s.min_players || (n >= s.min_players && n <= s.max_players));
  mount($("#scenario"), [h("option", { value: "" }, t("front.scenario.none")),
    fitting.map((s) => h("option", { value: s.id }, scenarioName(s)))]);
  if (fitting.some((s) => s.id === scenario)) $("#scenario").value = scenario;
  $("#scenario-row").hidden = r.scenarios.length === 0;
  $("#defense-row").hidden = !r.defense_seconds;
  $("#scenario").onchange = refresh;
  // A rebuild (a new language, say) keeps what the host already set for this game.
  const same = $("#options").dataset.ruleset === r.id;
  const ticked = {};
  for (const box of document.querySelectorAll("#options input")) ticked[box.name] = box.checked;
  $("#options").dataset.ruleset = r.id;
  mount($("#options"), Object.entries(r.options).filter(([, v]) => typeof v === "boolean")
    .map(([k, v]) => h("label", {}, h("input", { type: "checkbox", name: k,
      checked: same && k in ticked ? ticked[k] : v }), " ", optionName(k))));
  const deck = r.decks[String(n)] || [];
  if ($("#scenario").value) $("#deck-mode").value = "recommended";
  const picking = $("#deck-mode").value === "pick";
  $("#deck-preview").textContent = picking ? ""
    : $("#scenario").value ? t("front.preview.scenario")
      : t("front.preview.deck", { roles: deckWords(deck) });
  $("#roles").hidden = !picking;
  // Before picking a scenario: who plays against whom, how hard, which cards.
  const scen = r.scenarios.find((s) => s.id === $("#scenario").value);
  const shown = scen ? (scen.decks || {})[String(n)] || [] : deck;
  mount($("#scenario-info"), scen ? [
    h("p", { class: "scenario-line" }, t("front.scenario_info", {
      parties: hasText(`parties.${scen.parties}`) ? t(`parties.${scen.parties}`) : scen.parties || "",
      difficulty: hasText(`difficulty.${scen.difficulty}`) ? t(`difficulty.${scen.difficulty}`) : scen.difficulty || "" })),
    shown.length ? h("p", {}, t("front.scenario_deck", { n, roles: deckWords(shown) })) : null] : null);
  mount($("#deck-icons"), picking ? null : [h("h3", {}, t("front.deck_icons")), renderDeck(shown, { testid: "deck-icons-list" })]);
  $("#deck-icons").hidden = picking || !shown.length;
  if (picking) {
    const counts = {};
    const key = `${r.id}/${n}`;
    if ($("#roles").dataset.deck === key) {
      for (const input of document.querySelectorAll("#roles input")) counts[input.dataset.role] = Number(input.value);
    } else {
      for (const role of deck) counts[role] = (counts[role] || 0) + 1;
    }
    $("#roles").dataset.deck = key;
    mount($("#roles"), r.roles.map((role) => h("label", { class: "role-count" }, roleIcon(role), h("span", {}, roleName(role)),
      h("input", { type: "number", min: 0, max: 4, value: counts[role] || 0, "data-role": role }))));
  }
}

$("#create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = current();
  const body = {
    ruleset: r.id,
    seats: Number($("#seats").value),
    language: $("#language").value,
    call_seconds: Number($("#call-seconds").value),
    discussion_seconds: Number($("#discussion-minutes").value) * 60,
    vote_seconds: Number($("#vote-seconds").value),
    defense_seconds: Number($("#defense-seconds").value),
    bots: $("#bots").value,
    fast_night: $("#fast-night").checked,
    options: {},
    roles: [],
  };
  if ($("#scenario").value) body.scenario = $("#scenario").value;
  for (const box of document.querySelectorAll("#options input")) body.options[box.name] = box.checked;
  if ($("#deck-mode").value === "pick") {
    for (const input of document.querySelectorAll("#roles input")) {
      for (let i = 0; i < Number(input.value); i++) body.roles.push(input.dataset.role);
    }
  }
  const res = await fetch("/api/rooms", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { $("#create-error").textContent = errorText(data); return; }
  localStorage.setItem(`nightcall:host:${data.room}`, data.host_token);
  location.href = `/host/${data.room}`;
});

// A mistyped code is said here, before the player page asks for a name.
$("#join-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const code = $("#join-code").value.trim().toUpperCase();
  $("#join-error").textContent = "";
  if (!code) { $("#join-error").textContent = t("front.code_empty"); $("#join-code").focus(); return; }
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(code)}`);
    if (res.status === 404) { $("#join-error").textContent = t("join.no_room", { code }); $("#join-code").focus(); return; }
  } catch { /* offline: let the player page try */ }
  location.href = `/play/${encodeURIComponent(code)}`;
});

// The buttons come disabled in the page: until this script listens, pressing one would
// submit the form to the page itself and lose what was typed.
for (const button of document.querySelectorAll("#join-form button, #create-form button")) button.disabled = false;
load();
