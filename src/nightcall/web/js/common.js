// Pieces shared by the host screen, the phones and the spectators.
import { h } from "./dom.js";

export function renderSeats(lobby, mySeat = null, ghosts = []) {
  return h("ul", { class: "seats", "data-testid": "seats" }, lobby.seats.map((s) => h("li", {
    class: [s.connected ? "on" : "off", s.seat === mySeat ? "me" : "",
      ghosts.includes(s.name) ? "ghost" : ""].join(" "),
    "data-ghost": ghosts.includes(s.name) ? "yes" : null,
  }, h("span", { class: "dot" }), s.name, s.bot ? h("em", {}, " bot") : null,
  ghosts.includes(s.name) ? h("em", {}, " ghost") : null)));
}

export function renderEnd(obs, players) {
  const out = obs.view.outcome;
  const parts = [];
  if (out) {
    parts.push(h("div", { class: "outcome", "data-testid": "outcome" },
      h("h2", {}, out.winners.length ? `Winners: ${out.winners.join(", ")}` : "Nobody wins"),
      h("p", {}, out.dead.length ? `Dead: ${out.dead.join(", ")}` : "Nobody died."),
      h("ul", { class: "explanation" }, out.explanation.map((l) => h("li", {}, l)))));
  }
  if (obs.timeline) {
    parts.push(h("section", { class: "timeline", "data-testid": "timeline" },
      h("h2", {}, "The whole game"),
      h("ol", {}, obs.timeline.map((l) => h("li", { class: /^\s/.test(l) ? "sub" : "" }, l.trim())))));
  }
  return parts;
}
