// Speaking the narration with the Web Speech API. Without a voice the text on
// the screen carries on alone: nothing here ever waits for speech to finish.
// Lines queue one after the other (a new line no longer cuts the last one short);
// silencing the narrator stops at once.
const LANGS = { en: "en-US", it: "it-IT", de: "de-DE" };
const MUTED = "nightcall:muted";
const VOICE = "nightcall:voice:";

// The host may silence the narrator (kept for the next game on this screen).
let muted = (() => {
  try { return localStorage.getItem(MUTED) === "1"; } catch { return false; }
})();

export function isMuted() { return muted; }

export function setMuted(on) {
  muted = Boolean(on);
  try { localStorage.setItem(MUTED, muted ? "1" : "0"); } catch { /* not remembered */ }
  if (muted) {
    try { window.speechSynthesis.cancel(); } catch { /* no speech here */ }
  }
}

function synth() {
  try {
    const s = window.speechSynthesis;
    return s && typeof SpeechSynthesisUtterance !== "undefined" ? s : null;
  } catch {
    return null;
  }
}

// The voices that speak the room's language, best first: the exact locale, then
// voices known to sound natural, then the browser's default.
export function voicesFor(language) {
  const s = synth();
  if (!s) return [];
  const lang = LANGS[language] || "en-US";
  const score = (v) => (v.lang === lang ? 4 : 0)
    + (/natural|neural|premium|enhanced|google/i.test(v.name || "") ? 2 : 0)
    + (v.default ? 1 : 0);
  return (s.getVoices() || [])
    .filter((v) => v.lang && (v.lang === lang || v.lang.toLowerCase().startsWith(language)))
    .sort((a, b) => score(b) - score(a));
}

export function chosenVoice(language) {
  let name = null;
  try { name = localStorage.getItem(VOICE + language); } catch { /* none */ }
  const voices = voicesFor(language);
  return voices.find((v) => v.name === name) || voices[0] || null;
}

export function chooseVoice(language, name) {
  try { localStorage.setItem(VOICE + language, name); } catch { /* not remembered */ }
}

// Say ``text``; false when nothing will be said (muted, no speech, no fitting voice).
// ``onend`` is called when the voice has finished the line (table mode waits for it).
export function speak(text, language, { force = false, onend = null } = {}) {
  if (muted && !force) return false;
  try {
    const s = synth();
    if (!s) return false;
    const lang = LANGS[language] || "en-US";
    const any = (s.getVoices() || []).length > 0;
    const voice = chosenVoice(language);
    if (any && !voice) return false;  // voices, but none for this language: text only
    const u = new SpeechSynthesisUtterance(text);
    u.lang = lang;
    if (voice) u.voice = voice;
    if (onend) { u.onend = onend; u.onerror = onend; }
    s.speak(u);
    return true;
  } catch {
    return false;
  }
}

// Voices arrive late in some browsers: call back when the list changes.
export function onVoices(fn) {
  const s = synth();
  if (!s) return;
  try { s.addEventListener("voiceschanged", fn); } catch { /* old API */ }
}
