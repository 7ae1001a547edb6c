// Roles as the pages draw them: an icon from the app's own sprite, the side's colour,
// and the help (what it does, its side, how it wins) in the room's language.
import { h } from "./dom.js";
import { hasText, roleName, t, teamName } from "./text.js";

const SPRITE = "/static/icons/roles.svg";
const SVG = "http://www.w3.org/2000/svg";
// Calls that are not one role, drawn with the icon of the role they wake.
const ALIAS = {
  doppelganger_insomniac: "doppelganger", werewolves_dream_wolf: "werewolf",
  werewolves: "werewolf", vampires: "vampire", freemasons: "freemason", lovers: "venus", tokens: "token",
};

let rulesets = null;
// The public list of rulesets (role names, teams, scenarios), fetched once per page.
export function loadRulesets() {
  if (!rulesets) {
    rulesets = fetch("/api/rulesets").then((r) => (r.ok ? r.json() : [])).catch(() => []);
  }
  return rulesets;
}

let teams = {};
let rulesetId = "";
export function useRuleset(info) {
  teams = (info && info.teams) || {};
  rulesetId = (info && info.id) || "";
}

// An inline <svg> that shows one symbol of the sprite; decorative unless labelled.
export function icon(id, { cls = "icon", label = null } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("viewBox", "0 0 64 64");
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `${SPRITE}#${ALIAS[id] || id}`);
  svg.append(use);
  return svg;
}

export function roleIcon(role, opts) { return icon(role || "card-back", opts); }
export function tokenIcon(token, opts) { return icon(`token-${token}`, opts); }

// A role's side: the Doppelgänger and the Mimic play for whoever they copy.
export function teamOf(role) {
  if (role === "doppelganger" || role === "mimic") return "changing";
  return teams[role] || "unknown";
}

export function teamLabel(team) {
  return team === "changing" || team === "unknown" ? t(`team.${team}`) : teamName(team);
}

function winText(team) {
  const key = hasText(`win.${rulesetId}.${team}`) ? `win.${rulesetId}.${team}` : `win.${team}`;
  return hasText(key) ? t(key) : "";
}

export function helpText(role) {
  const key = `help.${rulesetId}.${role}`;
  return hasText(key) ? t(key) : "";
}

// What a role does, its side and how it wins: the role help.
export function renderHelp(role, { id = null } = {}) {
  const team = teamOf(role);
  return h("div", { class: `help team-${team}`, id, "data-testid": "role-help" },
    h("div", { class: "help-head" }, roleIcon(role, { cls: "icon big" }),
      h("h2", {}, roleName(role))),
    helpText(role) ? h("p", {}, helpText(role)) : null,
    h("p", {}, h("b", {}, t("help.team", { team: teamLabel(team) }))),
    winText(team) ? h("p", {}, t("help.win", { win: winText(team) })) : null);
}

// The deck with icons, one line per distinct role and how many copies.
export function renderDeck(roles, { testid = "deck" } = {}) {
  const counts = new Map();
  for (const r of roles) counts.set(r, (counts.get(r) || 0) + 1);
  return h("ul", { class: "deck-list", "data-testid": testid }, [...counts].map(([role, n]) =>
    h("li", { class: `team-${teamOf(role)}` }, roleIcon(role),
      h("span", { class: "deck-text" },
        h("b", {}, n > 1 ? `${roleName(role)} ×${n}` : roleName(role)),
        helpText(role) ? h("small", {}, helpText(role)) : null))));
}
