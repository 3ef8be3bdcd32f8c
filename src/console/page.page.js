// The console's question cards, their history and its connection (inlined into page.html by
// page-html.ts; activity.page.js follows it in the same script).
"use strict";
const $ = (id) => document.getElementById(id);
const cards = new Map(); // id → element; pending cards are kept, not re-rendered, so typing survives updates

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function clock(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function renderCard(card) {
  const permission = card.kind === "permission";
  const qid = "q-" + card.id;
  const form = el("form", { novalidate: true });
  const error = el("p", { class: "error", role: "alert" });
  if (permission) {
    // One click decides: Allow and Deny are the card's two options, each its own button.
    const actions = el("div", { class: "actions" });
    for (const option of card.options) {
      const button = el("button", { type: "button", class: option.id === "allow" ? "allow" : option.id === "deny" ? "deny" : "", text: option.label });
      button.addEventListener("click", () => send(card.id, { action: "answer", option_ids: [option.id], text: null }, error, form));
      actions.append(button);
    }
    form.append(actions, error);
  } else {
    if (card.options.length) {
      const fieldset = el("fieldset", {}, el("legend", { text: card.multi_select ? "Choose one or more" : "Choose one" }));
      card.options.forEach((option) => {
        const inputId = "opt-" + card.id + "-" + option.id;
        const input = el("input", { type: card.multi_select ? "checkbox" : "radio", name: "opt-" + card.id, value: option.id, id: inputId });
        const descId = option.description ? inputId + "-desc" : null;
        if (descId) input.setAttribute("aria-describedby", descId);
        fieldset.append(el("label", { class: "option", for: inputId }, input, el("span", { text: option.label }),
          option.description ? el("span", { class: "desc", id: descId, text: option.description }) : null));
      });
      form.append(fieldset);
    }
    let textarea = null;
    if (card.allow_free_text) {
      const textId = "text-" + card.id;
      textarea = el("textarea", { id: textId, name: "text" });
      form.append(el("label", { class: "free", for: textId, text: card.options.length ? "Your answer in words (optional, kept with the choice)" : "Your answer" }), textarea);
    }
    const skip = el("button", { type: "button", text: "Skip" });
    skip.addEventListener("click", () => send(card.id, { action: "skip" }, error, form));
    form.append(el("div", { class: "actions" }, el("button", { type: "submit", class: "primary", text: "Answer" }), skip), error);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const optionIds = [...form.querySelectorAll("input:checked")].map((input) => input.value);
      const text = textarea && textarea.value.trim() ? textarea.value.trim() : null;
      if (!optionIds.length && !text) {
        error.textContent = card.options.length ? "Choose an option" + (card.allow_free_text ? " or type an answer" : "") + " first." : "Type an answer first.";
        return;
      }
      send(card.id, { action: "answer", option_ids: optionIds, text }, error, form);
    });
  }
  const countdown = el("span", { class: "countdown", "data-expires": card.expires_at, title: "times out at " + clock(card.expires_at) });
  tick(countdown);
  return el("article", { class: "card" + (permission ? " permission" : ""), id: "card-" + card.id, "aria-labelledby": qid },
    el("div", { class: "meta" },
      el("span", { class: "num", text: "#" + card.number }),
      el("span", { text: permission ? "Permission request" : "Question" }),
      el("span", { text: card.surface ? "asked on surface " + card.surface : "asked by the harness" }),
      el("span", { text: "space " + card.space }),
      countdown),
    el("h3", { id: qid, text: card.question }),
    card.context ? el("p", { class: "context", text: card.context }) : null,
    form);
}

/** "times out in 4:05", updated every second; red in the last minute. */
function tick(node) {
  const left = Math.max(0, Math.round((Date.parse(node.dataset.expires) - Date.now()) / 1000));
  const text = left > 0 ? "times out in " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : "timing out…";
  if (node.textContent !== text) node.textContent = text;
  node.classList.toggle("soon", left < 60);
}
setInterval(() => document.querySelectorAll(".countdown").forEach(tick), 1000);

async function send(id, body, error, form) {
  error.textContent = "";
  for (const button of form.querySelectorAll("button")) button.disabled = true;
  try {
    const response = await fetch("/operator/cards/" + encodeURIComponent(id), {
      method: "POST", headers: { "Content-Type": "application/json", [SECRET_HEADER]: secret }, body: JSON.stringify(body), cache: "no-store",
    });
    if (response.status === 401) return lock(LOCKED_WHY);
    if (!response.ok) {
      const reply = await response.json().catch(() => ({}));
      error.textContent = (reply.error && reply.error.message) || "The sidecar refused the answer (HTTP " + response.status + ").";
    }
  } catch (e) {
    error.textContent = "Could not reach the sidecar: " + e.message;
  } finally {
    for (const button of form.querySelectorAll("button")) button.disabled = false;
  }
}

function renderPending(pending) {
  const list = $("pending");
  const ids = new Set(pending.map((card) => card.id));
  for (const [id, node] of cards) if (!ids.has(id)) { node.remove(); cards.delete(id); }
  for (const card of pending) {
    if (cards.has(card.id)) continue;
    const node = renderCard(card);
    cards.set(card.id, node);
    list.append(node);
    $("announce").textContent = "New " + (card.kind === "permission" ? "permission request" : "question") + " #" + card.number + ": " + card.question;
  }
  $("pending-empty").hidden = pending.length > 0;
  document.title = pending.length ? "(" + pending.length + ") sidecar operator" : "sidecar operator";
}

const OUTCOME_WORDS = { answered: "answered", skipped: "skipped", timeout: "timed out", cancelled: "withdrawn (call cancelled)", no_human: "not asked (nobody attached)" };

function renderHistory(entries, settledCount) {
  const list = $("history");
  list.replaceChildren(...entries.map((entry) => {
    const answer = [entry.selected.join(", "), entry.text ? "“" + entry.text + "”" : ""].filter(Boolean).join(" — ");
    return el("li", {},
      el("span", { class: "num", text: "#" + entry.card.number + " " }),
      el("span", { text: entry.card.question + " " }),
      el("span", { class: "outcome " + entry.outcome, text: "· " + (OUTCOME_WORDS[entry.outcome] || entry.outcome) }),
      answer ? el("span", { text: ": " + answer }) : null,
      el("span", { class: "meta", text: " at " + clock(entry.at) }));
  }));
  if (settledCount > entries.length) list.append(el("li", { class: "empty", text: entries.length + " of " + settledCount + " shown (newest first)." }));
  $("history-empty").hidden = entries.length > 0;
}

/** The cards when the run's questions come to this page; null when they go elsewhere. */
/** The header names the run: its checkout (the folder's name, then the whole path), its pid, since when. */
function renderRun(run) {
  if (!run) return;
  const name = run.workdir.split("/").filter(Boolean).pop() || run.workdir;
  $("run-name").textContent = "sidecar · " + name;
  $("run-facts").textContent = run.workdir + " · pid " + run.pid + " · since " + clock(run.since);
  document.title = "sidecar · " + name;
}

function renderQuestions(board) {
  $("questions-elsewhere").hidden = board !== null;
  $("answered").hidden = board === null;
  if (board === null) {
    $("pending-empty").hidden = true;
    return setStatus("Connected: watching this run", "live");
  }
  renderPending(board.pending);
  renderHistory(board.history, board.settledCount);
}

function setStatus(text, kind) {
  const status = $("status");
  status.textContent = text;
  status.className = "status " + kind;
}

// The page's secret: traded once for the ticket in the link's fragment, then kept in this origin's
// localStorage (per scheme, host and port, so no other server ever sees it) and sent as a header.
// Never a cookie: cookies go to every port of a host.
const SECRET_HEADER = "Sidecar-Page-Secret";
const STORE_KEY = "sidecar-page-secret";
const RECONNECT_MS = 2000;
const LOCKED_WHY = "Open the page link that sidecar serve printed in its ready line (its \"page\" field). A link opens the page once in a browser; this browser then keeps it for the rest of the run.";
let secret = null;

function lock(why) {
  secret = null;
  localStorage.removeItem(STORE_KEY);
  $("locked-why").textContent = why;
  $("locked").hidden = false;
  for (const section of document.querySelectorAll("main > section:not(#locked)")) section.hidden = true;
  setStatus("Not connected", "lost");
}

async function openPage() {
  const ticket = new URLSearchParams(location.hash.slice(1)).get("k");
  // Out of the address bar at once; the history's copy of the link is spent by the trade below.
  if (location.hash) history.replaceState(null, "", location.pathname);
  if (ticket) {
    const response = await fetch("/operator/session", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ticket }), cache: "no-store",
    }).catch(() => null);
    const reply = response ? await response.json().catch(() => ({})) : {};
    if (response && response.ok && reply.secret) localStorage.setItem(STORE_KEY, reply.secret);
    else if (!localStorage.getItem(STORE_KEY)) return lock((reply.error && reply.error.message) || LOCKED_WHY);
  }
  secret = localStorage.getItem(STORE_KEY);
  if (!secret) return lock(LOCKED_WHY);
  follow();
}

// Server-sent events read with fetch, which (unlike EventSource) can send the secret as a header.
async function follow() {
  let response;
  try {
    response = await fetch("/operator/events", { headers: { [SECRET_HEADER]: secret }, cache: "no-store" });
  } catch (e) {
    return retry();
  }
  if (response.status === 401) return lock(LOCKED_WHY);
  if (!response.ok || !response.body) return retry();
  setStatus("Connected: you are the attached operator", "live");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        handleEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  } catch (e) {
    // the connection dropped: reconnect below
  }
  retry();
}

function handleEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (!data.length) return;
  if (name === "calls") return receiveCalls(JSON.parse(data.join("\n")));
  if (name === "call") return receiveCall(JSON.parse(data.join("\n")));
  if (name !== "state") return;
  const state = JSON.parse(data.join("\n"));
  renderRun(state.run);
  renderQuestions(state.board);
  renderGlance(state.glance);
  renderRunning(state.running || []);
}

function retry() {
  if (!secret) return;
  setStatus("Disconnected: reconnecting…", "lost");
  setTimeout(follow, RECONNECT_MS);
}

openPage();
