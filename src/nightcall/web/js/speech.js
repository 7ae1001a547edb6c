// Speaking the narration with the Web Speech API. Without a voice the text on
// the screen carries on alone: nothing here ever waits for speech to finish.
const LANGS = { en: "en-US", it: "it-IT", de: "de-DE" };
const MUTED = "nightcall:muted";

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

export function speak(text, language) {
  if (muted) return false;
  try {
    const synth = window.speechSynthesis;
    if (!synth || typeof SpeechSynthesisUtterance === "undefined") return false;
    const lang = LANGS[language] || "en-US";
    const voices = synth.getVoices() || [];
    const voice = voices.find((v) => v.lang === lang) || voices.find((v) => v.lang && v.lang.startsWith(language));
    if (voices.length && !voice) return false;
    synth.cancel();
    const u = new SpeechSynthesisUtterance(text);
    u.lang = lang;
    if (voice) u.voice = voice;
    synth.speak(u);
    return true;
  } catch {
    return false;
  }
}
