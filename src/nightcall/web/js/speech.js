// Speaking the narration with the Web Speech API. Without a voice the text on
// the screen carries on alone: nothing here ever waits for speech to finish.
const LANGS = { en: "en-US", it: "it-IT", de: "de-DE" };

export function speak(text, language) {
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
