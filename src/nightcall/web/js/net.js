// One websocket to the room, rejoining by itself after a drop or a reload.

export function roomCode() {
  const parts = location.pathname.split("/").filter(Boolean);
  return (parts[1] || "").toUpperCase();
}

export function connect(code, hello, onMessage, onStatus = () => {}) {
  let ws = null;
  let delay = 250;
  let closed = false;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${code}`;

  function open() {
    ws = new WebSocket(url);
    ws.onopen = () => {
      delay = 250;
      onStatus("online");
      ws.send(JSON.stringify({ type: "hello", ...hello() }));
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      onMessage(msg);
    };
    ws.onclose = (e) => {
      onStatus("offline");
      if (closed || e.code === 4000) return;  // 4000: the server refused the hello
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
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
