// Sounds made on the spot with the Web Audio API (no files): a quiet night ambience
// for the shared screen and a soft chime at every call. Browsers start audio only
// after a tap, so nothing plays until someone switches it on.
const KEY = "nightcall:sound";

function load() {
  try { return { volume: 0.5, ambience: false, chime: false, ...JSON.parse(localStorage.getItem(KEY) || "{}") }; }
  catch { return { volume: 0.5, ambience: false, chime: false }; }
}

export const prefs = load();
let ctx = null;
let master = null;
let ambience = null;

function save() {
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch { /* not remembered */ }
}

function audio() {
  if (ctx) return ctx;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  ctx = new Ctx();
  master = ctx.createGain();
  master.gain.value = prefs.volume;
  master.connect(ctx.destination);
  return ctx;
}

export function setVolume(v) {
  prefs.volume = Math.min(1, Math.max(0, Number(v)));
  save();
  if (master) master.gain.setTargetAtTime(prefs.volume, ctx.currentTime, 0.05);
}

// A bell: two detuned sines that fade out, one octave apart.
export function chime() {
  const a = audio();
  if (!a) return;
  if (a.state === "suspended") a.resume();
  const now = a.currentTime;
  for (const [freq, level] of [[660, 0.25], [1320, 0.08], [990, 0.06]]) {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(level, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 1.8);
    osc.connect(gain).connect(master);
    osc.start(now);
    osc.stop(now + 1.9);
  }
}

// Wind (filtered noise breathing slowly) and now and then a cricket.
function startAmbience() {
  const a = audio();
  if (!a || ambience) return;
  if (a.state === "suspended") a.resume();
  const noise = a.createBuffer(1, a.sampleRate * 4, a.sampleRate);
  const data = noise.getChannelData(0);
  let last = 0;
  for (let i = 0; i < data.length; i++) {  // brown noise: soft, low
    last = (last + 0.02 * (Math.random() * 2 - 1)) / 1.02;
    data[i] = last * 3;
  }
  const src = a.createBufferSource();
  src.buffer = noise;
  src.loop = true;
  const filter = a.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.value = 420;
  const gain = a.createGain();
  gain.gain.value = 0.12;
  const lfo = a.createOscillator();
  const depth = a.createGain();
  lfo.frequency.value = 0.07;
  depth.gain.value = 0.06;
  lfo.connect(depth).connect(gain.gain);
  src.connect(filter).connect(gain).connect(master);
  src.start();
  lfo.start();
  const cricket = () => {
    if (!ambience) return;
    const t0 = a.currentTime;
    for (let k = 0; k < 3; k++) {
      const osc = a.createOscillator();
      const g = a.createGain();
      osc.frequency.value = 4200 + Math.random() * 300;
      g.gain.setValueAtTime(0.0001, t0 + k * 0.09);
      g.gain.exponentialRampToValueAtTime(0.015, t0 + k * 0.09 + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + k * 0.09 + 0.06);
      osc.connect(g).connect(master);
      osc.start(t0 + k * 0.09);
      osc.stop(t0 + k * 0.09 + 0.07);
    }
    ambience.timer = setTimeout(cricket, 2500 + Math.random() * 6000);
  };
  ambience = { src, lfo, timer: null };
  cricket();
}

function stopAmbience() {
  if (!ambience) return;
  clearTimeout(ambience.timer);
  try { ambience.src.stop(); ambience.lfo.stop(); } catch { /* already stopped */ }
  ambience = null;
}

export function setAmbience(on) {
  prefs.ambience = Boolean(on);
  save();
  if (prefs.ambience) startAmbience(); else stopAmbience();
}

export function setChime(on) {
  prefs.chime = Boolean(on);
  save();
  if (prefs.chime) chime();  // the tap that switches it on also lets audio start
}

// After a reload the browser wants a new tap before any sound: resume on the first one.
export function resumeOnTap() {
  const go = () => {
    if (prefs.ambience) startAmbience();
    document.removeEventListener("pointerdown", go);
  };
  document.addEventListener("pointerdown", go);
}
