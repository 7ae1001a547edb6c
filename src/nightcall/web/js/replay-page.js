// /replay/CODE: a finished room's replay, to open later or share; /replay (or the same
// page, later): a record file dropped on it or chosen. The record goes to the server,
// whose engine works out the steps (no rules in this file).
import { $, mount, h } from "./dom.js";
import { currentLanguage, setLanguage, setRoleNames, t, translatePage } from "./text.js";
import { loadRulesets, useRuleset } from "./roles.js";
import { mountReplay } from "./replay.js";

const params = new URLSearchParams(location.search);
const code = decodeURIComponent(location.pathname.replace(/^\/replay\/?/, "")).trim();
const seatParam = params.get("seat");
const seat = seatParam !== null && /^\d+$/.test(seatParam) ? Number(seatParam) : null;
const wanted = params.get("lang") || (navigator.language || "en").slice(0, 2);
const error = $("#rp-error");
const view = $("#rp-view");
let shown = null;   // the replay on the page, and where it came from
let source = "";
let ask = null;     // asks the server for it again, in a language (its sentences are in one)

// The page in its language now: a replay in another one is asked for again.
function relanguage() {
  translatePage();
  if (!shown) return;
  if (ask && shown.language !== currentLanguage()) {
    ask(currentLanguage()).then((res) => answer(res, source))
      .catch((err) => fail(t("replay.refused", { reason: err.message })));
  } else {
    show(shown, source);
  }
}

setLanguage(wanted, relanguage);
translatePage();

function fail(message) {
  error.textContent = message;
  error.hidden = false;
}

async function show(data, from) {
  shown = data;
  source = from;
  error.hidden = true;
  if (!params.get("lang") && data.language) setLanguage(data.language, relanguage);
  setRoleNames((data.role_names || {})[currentLanguage()] || {});
  const all = await loadRulesets();
  useRuleset(all.find((r) => r.id === data.ruleset) || null);
  $("#replay-source").textContent = from;
  document.title = `nightcall — ${t("replay.title")} — ${from}`;
  document.body.classList.toggle("loaded", true);
  mountReplay(view, data, { seat: seat !== null && seat < data.players.length ? seat : null,
    tv: window.innerWidth >= 1200 });
  view.querySelector("[data-testid=replay-next]").focus();
}

async function answer(res, from) {
  const got = await res.json().catch(() => ({}));
  if (!res.ok) { fail(t("replay.refused", { reason: got.message || res.statusText })); return; }
  await show(got, from);
}

// A record file: its JSON, without the comments (``text``, ``rule``: the engine ignores
// them, and they could take a long record past the server's body limit).
async function openFile(file) {
  if (!file) return;
  if (file.size > 2_000_000) { fail(t("replay.too_big")); return; }
  let body = await file.text();
  try {
    const record = JSON.parse(body);
    const inner = record && record.record && typeof record.record === "object" ? record.record : record;
    if (inner && Array.isArray(inner.steps)) {
      inner.steps = inner.steps.map((s) => {
        if (!s || typeof s !== "object") return s;
        const { text: _t, rule: _r, ...rest } = s;
        return rest;
      });
    }
    body = JSON.stringify(inner);
  } catch {
    fail(t("replay.not_json", { name: file.name }));
    return;
  }
  ask = (lang) => fetch(`/api/replay?lang=${lang}`, { method: "POST", body,
    headers: { "content-type": "application/json" } });
  try {
    await answer(await ask(currentLanguage()), file.name);
  } catch (err) {
    fail(t("replay.refused", { reason: err.message }));
  }
}

const input = $("#rp-file");
input.addEventListener("change", (ev) => openFile(ev.target.files[0]));
// A file chosen while this script was still waiting for its words (text.js awaits the
// English table before anything here runs): its change event came before our listener.
if (input.files && input.files[0]) openFile(input.files[0]);
const drop = $("#rp-drop");
for (const name of ["dragenter", "dragover"]) {
  document.addEventListener(name, (ev) => { ev.preventDefault(); drop.classList.add("over"); });
}
document.addEventListener("dragleave", (ev) => {
  if (ev.target === document.documentElement || ev.target === document.body) drop.classList.remove("over");
});
document.addEventListener("drop", (ev) => {
  ev.preventDefault();
  drop.classList.remove("over");
  openFile(ev.dataTransfer && ev.dataTransfer.files[0]);
});

if (code) {
  mount(view, h("p", { class: "hint" }, t("replay.loading")));
  // (without ?lang= the page takes the room's language, and the server answers in it)
  ask = (lang) => fetch(`/api/rooms/${encodeURIComponent(code)}/replay${lang ? `?lang=${lang}` : ""}`);
  ask(params.get("lang") ? currentLanguage() : "")
    .then((res) => answer(res, code))
    .catch((err) => fail(t("replay.refused", { reason: err.message })));
}
