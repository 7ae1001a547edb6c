// The host screen's "keep this table" control (issue 20). A table is a private link
// (/t/TOKEN) with a host's key; this screen remembers both (localStorage) and links
// every room it hosts to the table, so each finished game is kept in its history.
// Loaded by host.html as a module of its own; the table page imports its helpers.
import { h, mount } from "./dom.js";
import { setLanguage, t } from "./text.js";

export const KEPT = "nightcall:table";
const SKIP = "nightcall:table:skip:";

export function keptTable() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT) || "null");
    return kept && typeof kept.token === "string" && typeof kept.key === "string" ? kept : null;
  } catch { return null; }
}

export function forgetTable() {
  try { localStorage.removeItem(KEPT); } catch { /* not remembered anyway */ }
}

function remember(table) {
  try { localStorage.setItem(KEPT, JSON.stringify({ token: table.token, key: table.key })); }
  catch { /* private mode: kept for this page only */ }
}

function skipped(code) {
  try { return sessionStorage.getItem(SKIP + code) === "1"; } catch { return false; }
}

function setSkipped(code, yes) {
  try {
    if (yes) sessionStorage.setItem(SKIP + code, "1"); else sessionStorage.removeItem(SKIP + code);
  } catch { /* not remembered */ }
}

async function link(code, hostToken, table) {
  const res = await fetch(`/api/rooms/${code}/table`, { method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ host_token: hostToken, table }) });
  return res.status;
}

async function startHost() {
  const code = (location.pathname.split("/")[2] || "").toUpperCase();
  const hostKey = `nightcall:host:${code}`;
  let hostToken = null;
  try { hostToken = localStorage.getItem(hostKey); } catch { /* none */ }
  if (!hostToken && location.hash.length > 1) hostToken = decodeURIComponent(location.hash.slice(1));
  if (!code || !hostToken) return;
  let language = "en";
  try {
    const lobby = await (await fetch(`/api/rooms/${code}`)).json();
    language = (lobby.settings && lobby.settings.language) || "en";
  } catch { /* English */ }
  const panel = h("section", { class: "panel table-keep", "data-testid": "table-keep" });
  document.querySelector("main").append(panel);
  let table = keptTable();
  let said = "";

  const draw = () => {
    if (table && !skipped(code)) {
      const url = `${location.origin}/t/${table.token}`;
      mount(panel, h("h2", {}, t("table_history.keep.title")),
        h("p", {}, t("table_history.keep.on")),
        h("p", {}, h("a", { href: `/t/${table.token}`, target: "_blank", rel: "noopener",
          "data-testid": "table-link" }, t("table_history.keep.open"))),
        h("p", { class: "link" }, url),
        h("p", { class: "hint" }, t("table_history.share")),
        h("button", { type: "button", class: "quiet", onclick: () => stop() },
          t("table_history.keep.stop")));
    } else {
      mount(panel, h("h2", {}, t("table_history.keep.title")),
        h("p", { class: "hint" }, t("table_history.keep.hint")),
        said ? h("p", { class: "hint" }, said) : null,
        h("button", { type: "button", "data-testid": "keep-table", onclick: () => keep() },
          t("table_history.keep.button")));
    }
  };

  const keep = async () => {
    setSkipped(code, false);
    if (!table) {
      const res = await fetch("/api/tables", { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ language }) });
      if (!res.ok) { said = t("table_history.keep.failed"); draw(); return; }
      table = await res.json();
      remember(table);
    }
    await attach();
  };

  const attach = async () => {
    const status = await link(code, hostToken, table.token);
    if (status === 404) {  // the table was deleted: forget it here too
      forgetTable();
      table = null;
      said = t("table_history.keep.gone");
    } else if (status !== 200) {
      said = t("table_history.keep.failed");
      setSkipped(code, true);
    }
    draw();
  };

  const stop = async () => {
    setSkipped(code, true);
    await link(code, hostToken, null);
    draw();
  };

  setLanguage(language, draw);
  draw();
  if (table && !skipped(code)) await attach();
}

if (location.pathname.startsWith("/host/")) startHost();
