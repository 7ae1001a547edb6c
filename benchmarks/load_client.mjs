// The phones of benchmarks/load_web.py, in Node.js (run by it with --client node).
//
// The same play as the Python client (a random legal move after a 50-300 ms pause,
// claims during the day, one host screen per room that deals), with less CPU per
// message, so that on a 2-core machine the server, not the clients, is measured.
// Node 20 needs --experimental-websocket; no npm package is used.
//
//   node --experimental-websocket benchmarks/load_client.mjs '{"url": ..., "rooms": 10}'
// prints one JSON object: latencies (seconds), peak, games, errors, lag, seconds.

const cfg = JSON.parse(process.argv[2]);
const wsBase = cfg.url.replace(/^http/, "ws");
const stats = { latencies: [], sentAt: [], connected: 0, peak: 0, errors: {}, gamesOver: 0, lag: 0,
  opened: 0, closes: {}, created: 0, started: 0 };
let seed = cfg.seed ?? 1;
function random() { // a small seeded generator (mulberry32): runs repeat
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const uniform = (a, b) => a + (b - a) * random();
const choice = (xs) => xs[Math.floor(random() * xs.length)];
const now = () => performance.now() / 1000;

let seatedResolve;
const allSeated = new Promise((r) => { seatedResolve = r; });
function connected(delta) {
  stats.connected += delta;
  stats.peak = Math.max(stats.peak, stats.connected);
  if (stats.connected >= cfg.rooms * 5) seatedResolve();
}

// A few handshakes at a time, as the Python client does: no connection storm.
let slots = 16;
const waiting = [];
async function gate(fn) {
  while (slots === 0) await new Promise((r) => waiting.push(r));
  slots -= 1;
  try { return await fn(); } finally { slots += 1; const w = waiting.shift(); if (w) w(); }
}

function open(url) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = (e) => reject(new Error(`websocket error ${e.message || ""}`));
  });
}

function phone(code, name) {
  return new Promise((done, fail) => {
    gate(() => open(`${wsBase}/ws/${code}`)).then((ws) => {
      connected(1);
      stats.opened += 1;
      let latest = null, move = null, claim = null, said = 0, mySeat = -1, thinking = false;
      let lastClaim = null;
      const myClaims = (msg) => msg.view.events.filter(
        (e) => e.kind === "claim" && e.seat === mySeat).length;
      const mayClaim = (msg) =>
        (msg.clock.stage === "discussion" || msg.clock.stage === "vote") && said < cfg.claims;
      const send = (m) => { try { ws.send(JSON.stringify(m)); } catch { /* closed */ } };
      function answer() {
        thinking = false;
        const msg = latest;
        if (!msg || msg.clock.stage === "over") return;
        const legal = msg.view.legal || [];
        if (legal.length && move === null) {
          move = [now(), msg.state_id];
          send({ type: "action", action: choice(legal), state_id: msg.state_id });
        } else if (mayClaim(msg) && claim === null) {
          said += 1;
          claim = [now(), myClaims(msg) + 1];
          // Never the same claim twice in a row: the server refuses a repeat (a double tap).
          lastClaim = choice([1, 4, 5, 6, 11].filter((r) => r !== lastClaim));
          send({ type: "action", action: { kind: "claim", a: lastClaim }, state_id: msg.state_id });
          thinking = true;
          setTimeout(answer, uniform(500, 1500));
        }
      }
      ws.onmessage = (e) => {
        const t = now();
        const msg = JSON.parse(e.data);
        if (msg.type === "welcome") mySeat = msg.seat;
        if (msg.type === "error" || msg.type === "room_error") {
          stats.errors[msg.code] = (stats.errors[msg.code] || 0) + 1;
          move = claim = null;
          return;
        }
        if (msg.type !== "observation") return;
        latest = msg;
        if (move !== null && msg.state_id !== move[1]) {
          stats.latencies.push(t - move[0]); stats.sentAt.push(move[0] - started); move = null;
        }
        if (claim !== null && myClaims(msg) >= claim[1]) {
          stats.latencies.push(t - claim[0]); stats.sentAt.push(claim[0] - started); claim = null;
        }
        if (msg.clock.stage === "over") { stats.gamesOver += 1; ws.close(); return; }
        if (!thinking && ((msg.view.legal && msg.view.legal.length) || mayClaim(msg))) {
          thinking = true;
          setTimeout(answer, uniform(50, 300));
        }
      };
      ws.onclose = (e) => {
        stats.closes[e.code] = (stats.closes[e.code] || 0) + 1;
        connected(-1);
        done();
      };
      ws.send(JSON.stringify({ type: "hello", name }));
    }, fail);
  });
}

async function room() {
  const r = await gate(() => fetch(`${cfg.url}/api/rooms`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ seats: 5, call_seconds: cfg.call_seconds,
      discussion_seconds: cfg.discussion_seconds, vote_seconds: cfg.vote_seconds }),
  }));
  if (r.status !== 201) throw new Error(`create room: ${r.status} ${await r.text()}`);
  const { room: code, host_token: token } = await r.json();
  stats.created += 1;
  const phones = [0, 1, 2, 3, 4].map((i) => phone(code, `p${i}`));
  const host = await gate(() => open(`${wsBase}/ws/${code}`));
  host.onmessage = () => {};
  host.send(JSON.stringify({ type: "hello", as: "host", token }));
  await allSeated;
  await new Promise((r) => setTimeout(r, uniform(0, cfg.stagger * 1000)));
  host.send(JSON.stringify({ type: "start" }));
  stats.started += 1;
  await Promise.all(phones);
  host.close();
}

const started = now();
let tick = now();
const lagTimer = setInterval(() => {
  const t = now();
  stats.lag = Math.max(stats.lag, t - tick - 0.01);
  tick = t;
}, 10);
const timeout = setTimeout(() => {
  const { latencies, sentAt, ...rest } = stats;
  console.error("timed out", JSON.stringify({ ...rest, measured: latencies.length }));
  process.exit(3);
}, cfg.timeout * 1000);
await Promise.all(Array.from({ length: cfg.rooms }, () => room()));
clearInterval(lagTimer);
clearTimeout(timeout);
console.log(JSON.stringify({
  latencies: stats.latencies, sent_at: stats.sentAt, peak: stats.peak, games: Math.floor(stats.gamesOver / 5),
  errors: stats.errors, lag: stats.lag, seconds: now() - started,
}));
