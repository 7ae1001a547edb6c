// Pieces shared by the host screen, the phones and the spectators.
import { h } from "./dom.js";
import { t } from "./text.js";

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
      h("h2", {}, out.winners.length ? `${t("end.winners")}: ${out.winners.join(", ")}` : t("end.nobody_wins")),
      h("p", {}, out.dead.length ? `${t("end.dead")}: ${out.dead.join(", ")}` : t("end.nobody_died")),
      h("ul", { class: "explanation" }, out.explanation.map((l) => h("li", {}, l)))));
  }
  if (obs.timeline) {
    parts.push(h("section", { class: "timeline", "data-testid": "timeline" },
      h("h2", {}, t("end.timeline")),
      h("ol", {}, obs.timeline.map((l) => h("li", { class: /^\s/.test(l) ? "sub" : "" }, l.trim())))));
  }
  return parts;
}
