// Pieces shared by the host screen, the phones and the spectators.
import { h } from "./dom.js";
import { currentLanguage, list, t, teamName } from "./text.js";

export function renderSeats(lobby, mySeat = null, ghosts = []) {
  return h("ul", { class: "seats", "data-testid": "seats" }, lobby.seats.map((s) => h("li", {
    class: [s.connected ? "on" : "off", s.seat === mySeat ? "me" : "",
      ghosts.includes(s.name) ? "ghost" : ""].join(" "),
    "data-ghost": ghosts.includes(s.name) ? "yes" : null,
  }, h("span", { class: "dot" }), s.name, s.bot ? h("em", {}, ` ${t("tag.bot")}`) : null,
  ghosts.includes(s.name) ? h("em", {}, ` ${t("tag.ghost")}`) : null)));
}

export function renderEnd(obs, players) {
  const out = obs.view.outcome;
  const parts = [];
  // The server's timeline ends with the judge's reasoning in the room's language, one
  // line per line of the (English) outcome.explanation: split it off to show it here.
  const why = out ? out.explanation.length : 0;
  const told = obs.timeline && obs.timeline.length >= why ? obs.timeline : null;
  const story = told ? told.slice(0, told.length - why) : obs.timeline;
  if (out) {
    const english = !told && currentLanguage() !== "en";  // no timeline yet: English only
    parts.push(h("div", { class: "outcome", "data-testid": "outcome" },
      h("h2", {}, out.winners.length ? t("end.winners", { names: list(out.winners) }) : t("end.nobody_wins")),
      out.teams && out.teams.length ? h("p", {}, t("end.teams", { teams: list(out.teams.map(teamName)) })) : null,
      h("p", {}, out.dead.length ? t("end.dead", { names: list(out.dead) }) : t("end.nobody_died")),
      english ? h("p", { class: "hint" }, t("end.explanation_en")) : null,
      h("ul", { class: "explanation", "data-testid": "explanation", lang: english ? "en" : null },
        (told ? told.slice(told.length - why) : out.explanation).map((l) => h("li", {}, l)))));
  }
  if (story) {
    parts.push(h("section", { class: "timeline", "data-testid": "timeline" },
      h("h2", {}, t("end.timeline")),
      h("ol", {}, story.map((l) => h("li", { class: /^\s/.test(l) ? "sub" : "" }, l.trim())))));
  }
  return parts;
}
