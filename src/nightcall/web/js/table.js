// A table's history (/t/TOKEN): games played, each person's wins and losses by team
// and by role, streaks, who voted out the most werewolves, two plots drawn here as SVG,
// the exports, and on the host's own screen (which keeps the table's key) merges and
// deletions. Names are the only identity: "Ada at this table".
import { h, mount } from "./dom.js";
import { list, setLanguage, setRoleNames, t, teamName, roleName, translatePage } from "./text.js";
import { forgetTable, keptTable } from "./table-keep.js";

const token = decodeURIComponent(location.pathname.split("/")[2] || "");
const api = `/api/tables/${encodeURIComponent(token)}`;
const root = document.getElementById("table");
const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#ffb347", "#5bd68a", "#6ab0ff", "#ff6b6b", "#c792ea", "#f7e06e",
  "#4dd0c8", "#ff8fb1", "#a3b1ff", "#b8e07a"];
let data = null;
let roleNamesByLang = {};

function hostKey() {
  const kept = keptTable();
  return kept && kept.token === token ? kept.key : null;
}

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function pct(wins, games) {
  return games ? `${Math.round((100 * wins) / games)}%` : "–";
}

function wl(tally) {
  return tally.games ? `${tally.wins}–${tally.losses}` : "–";
}

function streak(n) {
  if (!n) return "–";
  return n > 0 ? t("table_history.streak_won", { n }) : t("table_history.streak_lost", { n: -n });
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(document.documentElement.lang, {
    dateStyle: "medium", timeStyle: "short" });
}

// Plot 1: each person's wins and losses as one bar, wins first.
function winsPlot(players) {
  const row = 28, left = 90, width = 420, top = 8;
  const most = Math.max(1, ...players.map((p) => p.games));
  const scale = (width - left - 40) / most;
  const svg = s("svg", { class: "plot", viewBox: `0 0 ${width} ${top * 2 + row * players.length + 20}`,
    role: "img", "aria-label": t("table_history.plot_wins") });
  players.forEach((p, i) => {
    const y = top + i * row;
    svg.append(s("text", { x: left - 8, y: y + 18, "text-anchor": "end" }, p.name));
    svg.append(s("rect", { x: left, y: y + 3, width: p.wins * scale, height: row - 8, fill: "#5bd68a", rx: 3 }));
    svg.append(s("rect", { x: left + p.wins * scale, y: y + 3, width: p.losses * scale,
      height: row - 8, fill: "#ff6b6b", rx: 3 }));
    svg.append(s("text", { x: left + p.games * scale + 6, y: y + 18, class: "muted" },
      `${p.wins}/${p.games}`));
  });
  return svg;
}

// Plot 2: each person's running total of wins, game after game (oldest on the left).
function timelinePlot(stats) {
  const games = [...stats.list].reverse();
  const width = 420, height = 200, left = 30, right = 12, top = 12, bottom = 26;
  const people = stats.players.slice(0, COLORS.length);
  const runs = people.map((p) => {
    let wins = 0;
    const points = [];
    games.forEach((g, i) => {
      const seat = g.players.find((x) => !x.bot && x.name.toLowerCase() === p.name.toLowerCase());
      if (!seat) return;
      if (!points.length) points.push([i, 0]);  // from the game before their first
      if (seat.won) wins += 1;
      points.push([i + 1, wins]);
    });
    return { name: p.name, points };
  });
  const most = Math.max(1, ...runs.map((r) => (r.points.length ? r.points[r.points.length - 1][1] : 0)));
  const x = (i) => left + ((width - left - right) * i) / Math.max(1, games.length);
  const y = (w) => height - bottom - ((height - top - bottom) * w) / most;
  const svg = s("svg", { class: "plot", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": t("table_history.plot_timeline") });
  svg.append(s("line", { class: "axis", x1: left, y1: y(0), x2: width - right, y2: y(0) }));
  svg.append(s("line", { class: "axis", x1: left, y1: y(0), x2: left, y2: top }));
  svg.append(s("text", { x: left - 6, y: y(most) + 4, "text-anchor": "end", class: "muted" }, most));
  svg.append(s("text", { x: width - right, y: height - 6, "text-anchor": "end", class: "muted" },
    t("table_history.plot_games", { n: games.length })));
  runs.forEach((r, i) => {
    svg.append(s("polyline", { points: r.points.map(([a, b]) => `${x(a)},${y(b)}`).join(" "),
      fill: "none", stroke: COLORS[i], "stroke-width": 2.5, "stroke-linejoin": "round" }));
  });
  const legend = h("p", { class: "legend" }, runs.map((r, i) => h("span", {},
    swatch(COLORS[i]), r.name)));
  return [svg, legend];
}

function swatch(color) {
  return s("svg", { width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true" },
    s("rect", { width: 12, height: 12, rx: 2, fill: color }));
}

function playersTable(players) {
  const head = ["player", "games", "wins", "losses", "rate", "werewolf", "villager", "streak",
    "best", "wolves_out"].map((k) => h("th", { scope: "col" }, t(`table_history.col.${k}`)));
  return h("div", { class: "scroll" }, h("table", { class: "table-stats", "data-testid": "players" },
    h("thead", {}, h("tr", {}, head)),
    h("tbody", {}, players.map((p) => h("tr", {},
      h("th", { scope: "row" }, p.name),
      h("td", {}, p.games), h("td", { class: "won" }, p.wins), h("td", { class: "lost" }, p.losses),
      h("td", {}, pct(p.wins, p.games)), h("td", {}, wl(p.as_werewolf)),
      h("td", {}, wl(p.as_villager)), h("td", {}, streak(p.streak)), h("td", {}, p.best_streak),
      h("td", {}, p.wolves_voted_out))))));
}

function rolesTable(players) {
  return players.map((p) => h("details", {},
    h("summary", {}, p.name),
    h("table", { class: "table-stats" },
      h("tbody", {},
        Object.entries(p.teams).map(([team, n]) => h("tr", {}, h("td", {}, teamName(team)),
          h("td", {}, wl(n)), h("td", {}, pct(n.wins, n.games)))),
        Object.entries(p.roles).map(([role, n]) => h("tr", {}, h("td", {}, roleName(role)),
          h("td", {}, wl(n)), h("td", {}, pct(n.wins, n.games))))))));
}

function gamesList(stats, key) {
  return h("ol", { class: "games-list", "data-testid": "games" }, stats.list.map((g) => h("li", {},
    h("div", {}, h("b", {}, when(g.finished)), " · ",
      g.teams.length ? t("table_history.won_by", { teams: list(g.teams.map(teamName)) })
        : t("table_history.nobody_won")),
    h("div", { class: "who" }, g.players.map((p, i) => [i ? ", " : "",
      h("span", { class: p.won ? "won" : "lost" }, p.name), ` (${roleName(p.role)}`,
      p.bot ? `, ${t("tag.bot")}` : "", ")"])),
    key ? h("button", { class: "quiet", type: "button", "data-testid": "delete-game",
      onclick: () => deleteGame(g.id, key) }, t("table_history.delete_game")) : null)));
}

function hostPanel(stats, key) {
  const names = stats.players.map((p) => p.name);
  const pick = (id) => h("select", { id, "aria-label": t(`table_history.${id}`) },
    names.map((n) => h("option", { value: n }, n)));
  const from = pick("merge_from"), into = pick("merge_into");
  if (names.length > 1) into.value = names[1];
  const said = h("p", { class: "hint", "data-testid": "host-said" });
  return h("section", { class: "panel" },
    h("h2", {}, t("table_history.host")),
    h("p", { class: "hint" }, t("table_history.merge_hint")),
    h("div", { class: "merge" }, from, h("span", {}, "→"), into,
      h("button", { type: "button", onclick: () => merge(from.value, into.value, key, said) },
        t("table_history.merge"))),
    said,
    h("p", {}, h("button", { type: "button", class: "danger", "data-testid": "delete-table",
      onclick: () => deleteTable(key) }, t("table_history.delete_table"))));
}

function render() {
  if (!data) return;
  translatePage();
  setRoleNames(roleNamesByLang[document.documentElement.lang] || {});
  const stats = data.stats;
  const key = hostKey();
  const hunters = stats.wolf_hunters;
  const top = hunters.length ? stats.players.find((p) => p.name === hunters[0]).wolves_voted_out : 0;
  mount(root,
    h("section", { class: "panel" },
      h("p", { class: "big", "data-testid": "games-played" }, stats.games),
      h("p", {}, t("table_history.games_played", { n: stats.games })),
      Object.keys(stats.team_wins).length ? h("p", { class: "hint" },
        Object.entries(stats.team_wins).map(([team, n]) =>
          t("table_history.team_won", { team: teamName(team), n })).join(" · ")) : null,
      h("p", { "data-testid": "hunter" }, hunters.length
        ? t("table_history.hunter", { names: list(hunters), n: top })
        : t("table_history.hunter_none")),
      h("p", { class: "hint" }, t("table_history.share"))),
    stats.players.length ? [
      h("section", { class: "panel" }, h("h2", {}, t("table_history.players")),
        playersTable(stats.players)),
      h("section", { class: "panel" }, h("h2", {}, t("table_history.plot_wins")),
        winsPlot(stats.players)),
      h("section", { class: "panel" }, h("h2", {}, t("table_history.plot_timeline")),
        timelinePlot(stats)),
      h("section", { class: "panel" }, h("h2", {}, t("table_history.roles")),
        rolesTable(stats.players)),
    ] : h("section", { class: "panel" }, h("p", {}, t("table_history.empty"))),
    stats.list.length ? h("section", { class: "panel" }, h("h2", {}, t("table_history.games")),
      gamesList(stats, key)) : null,
    h("section", { class: "panel exports" },
      h("a", { href: `${api}/games.csv`, download: "nightcall-table.csv",
        "data-testid": "export-csv" }, t("table_history.export_csv")),
      h("a", { href: `${api}/records.json`, download: "nightcall-table-records.json",
        "data-testid": "export-json" }, t("table_history.export_json"))),
    key ? hostPanel(stats, key) : null);
}

async function send(method, path, key, body) {
  const res = await fetch(`${api}${path}`, { method, headers: {
    "X-Table-Key": key, ...(body ? { "Content-Type": "application/json" } : {}) },
  body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) {
    let msg = "";
    try { msg = (await res.json()).message; } catch { /* no body */ }
    throw new Error(msg || res.statusText);
  }
  return res;
}

async function merge(from, into, key, said) {
  if (from === into) { said.textContent = t("table_history.merge_same"); return; }
  try {
    await send("POST", "/merge", key, { from, into });
    await load();
  } catch (err) { said.textContent = err.message; }
}

async function deleteGame(id, key) {
  if (!window.confirm(t("table_history.delete_game_confirm"))) return;
  await send("DELETE", `/games/${encodeURIComponent(id)}`, key);
  await load();
}

async function deleteTable(key) {
  if (!window.confirm(t("table_history.delete_table_confirm"))) return;
  await send("DELETE", "", key);
  forgetTable();
  data = null;
  mount(root, h("section", { class: "panel" }, h("p", { "data-testid": "gone" },
    t("table_history.deleted"))));
}

async function load() {
  const res = await fetch(api);
  if (!res.ok) {
    mount(root, h("section", { class: "panel" }, h("p", { "data-testid": "missing" },
      res.status === 429 ? t("table_history.slow_down") : t("table_history.missing"))));
    return;
  }
  data = await res.json();
  setLanguage(data.language, render);
  render();
}

fetch("/api/rulesets").then((r) => r.json()).then((rulesets) => {
  // Role names of every ruleset, by language (one table: role ids do not collide in meaning).
  for (const rs of rulesets) {
    for (const [lang, names] of Object.entries(rs.role_names || {})) {
      roleNamesByLang[lang] = { ...names, ...(roleNamesByLang[lang] || {}) };
    }
  }
  render();
}).catch(() => {});
load();
