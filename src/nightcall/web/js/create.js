// The front page: create a room (host) or type a room code (player).
import { h, mount, $ } from "./dom.js";
import { roleName } from "./text.js";

let rulesets = [];

async function load() {
  const res = await fetch("/api/rulesets");
  rulesets = await res.json();
  mount($("#ruleset"), rulesets.map((r) => h("option", { value: r.id }, r.title)));
  $("#ruleset").addEventListener("change", refresh);
  $("#seats").addEventListener("change", refresh);
  $("#deck-mode").addEventListener("change", refresh);
  refresh();
}

function current() { return rulesets.find((r) => r.id === $("#ruleset").value) || rulesets[0]; }

function refresh() {
  const r = current();
  const seats = $("#seats");
  seats.min = r.min_players; seats.max = r.max_players;
  let n = Number(seats.value) || 5;
  n = Math.min(Math.max(n, r.min_players), r.max_players);
  seats.value = n;
  mount($("#scenario"), [h("option", { value: "" }, "Recommended deck"),
    r.scenarios.filter((s) => !s.min_players || (n >= s.min_players && n <= s.max_players))
      .map((s) => h("option", { value: s.id }, s.name))]);
  $("#scenario-row").hidden = r.scenarios.length === 0;
  $("#defense-row").hidden = r.id !== "lupus";
  $("#scenario").onchange = refresh;
  mount($("#options"), Object.entries(r.options).filter(([, v]) => typeof v === "boolean")
    .map(([k, v]) => h("label", {}, h("input", { type: "checkbox", name: k, checked: v }), " ", k.replace(/_/g, " "))));
  const deck = r.decks[String(n)] || [];
  if ($("#scenario").value) $("#deck-mode").value = "recommended";
  const picking = $("#deck-mode").value === "pick";
  $("#deck-preview").textContent = picking ? ""
    : $("#scenario").value ? "The scenario's deck." : `Deck: ${deck.map(roleName).join(", ")}`;
  $("#roles").hidden = !picking;
  if (picking) {
    const counts = {};
    for (const role of deck) counts[role] = (counts[role] || 0) + 1;
    mount($("#roles"), r.roles.map((role) => h("label", { class: "role-count" }, roleName(role), " ",
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
  if (!res.ok) { $("#create-error").textContent = data.message; return; }
  localStorage.setItem(`nightcall:host:${data.room}`, data.host_token);
  location.href = `/host/${data.room}`;
});

$("#join-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = $("#join-code").value.trim().toUpperCase();
  if (code) location.href = `/play/${encodeURIComponent(code)}`;
});

load();
