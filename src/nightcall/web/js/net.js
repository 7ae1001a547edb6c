// One websocket to the room, rejoining by itself after a drop or a reload.

export function roomCode() {
  const parts = location.pathname.split("/").filter(Boolean);
  return (parts[1] || "").toUpperCase();
}

// Refusals of the hello that are not final: the server is busy, or holds this address
// back for a while (someone there mistyped many room codes). The page waits and tries
// again, and the refusal is not shown as if the room had turned it away.
const RETRY = new Set(["slow_down", "busy"]);
const DISMISSED = new Set(["kicked", "elsewhere", "not_let_in"]);

export function connect(code, hello, onMessage, onStatus = () => {}) {
  let ws = null;
  let delay = 250;
  let closed = false;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${code}`;

  function open() {
    const sock = ws = new WebSocket(url);
    let welcomed = false;
    let refusal = null;  // the code of this connection's refusal, if it was refused
    sock.onopen = () => {
      delay = 250;
      onStatus("online");
      sock.send(JSON.stringify({ type: "hello", ...hello() }));
    };
    sock.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "welcome") welcomed = true;
      const refused = msg.type === "room_error" || msg.type === "error";
      // After the welcome only a dismissal is final: the seat was taken away, it was
      // opened on another screen, or the host did not let an asking phone in.
      if (refused && (!welcomed || DISMISSED.has(msg.code))) {
        refusal = msg.code;
        if (RETRY.has(msg.code)) { onStatus("waiting"); return; }
      }
      onMessage(msg);
    };
    sock.onclose = (e) => {
      // Final only when the server said why and closed with 4000 (a taken name, a
      // full table, a seat that is gone); anything else: try again.
      const final = e.code === 4000 && refusal !== null && !RETRY.has(refusal);
      // Held back for a while (not refused): the page stays "waiting" until it tries again.
      // Closed for good ("closed"): nothing is reconnecting, so the page must not say so.
      onStatus(closed || final ? "closed" : RETRY.has(refusal) ? "waiting" : "offline");
      if (closed || sock !== ws || final) return;
      const wait = RETRY.has(refusal) ? Math.max(delay, 5000) : delay;
      setTimeout(open, wait);
      delay = Math.min(Math.max(delay * 2, wait), RETRY.has(refusal) ? 30000 : 5000);
    };
  }
  open();
  return {
    send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(msg)); return true; }
      return false;
    },
    close() { closed = true; if (ws) ws.close(); },
    reopen() { closed = false; if (!ws || ws.readyState > 1) open(); },
  };
}
