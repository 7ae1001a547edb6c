// Building the page from data. Text always goes in through textContent, never
// innerHTML, so a player called "<script>" is just a name on the screen.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function $(selector) {
  return document.querySelector(selector);
}

// A countdown that follows the server's deadline (epoch ms).
export function countdown(el, endsAt) {
  clearInterval(el._timer);
  const tick = () => {
    if (!endsAt) { el.textContent = ""; return; }
    const left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
    const m = Math.floor(left / 60);
    const s = String(left % 60).padStart(2, "0");
    el.textContent = m > 0 ? `${m}:${s}` : `${left}`;
    el.classList.toggle("urgent", left <= 5);
  };
  tick();
  if (endsAt) el._timer = setInterval(tick, 250);
}

// The page's #toast shows ``text`` for ``ms`` milliseconds (a refusal, a lost link).
export function toast(text, ms) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(el._t);
  el._t = setTimeout(() => { el.hidden = true; }, ms);
}
