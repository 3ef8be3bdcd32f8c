// The operator page's activity (calls running and ended, opened on demand) and resources panel;
// inlined after page.page.js by page-html.ts, whose helpers ($, el, clock, secret, lock) it uses.
function renderGlance(sections) {
  $("glance").replaceChildren(...sections.flatMap((section) => {
    if (!section.rows.length) return [el("h3", { text: section.title }), el("p", { class: "none", text: section.empty || "Nothing yet." })];
    const table = el("table", {},
      el("caption", { text: section.title }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Name" }), el("th", { scope: "col", text: "State" }), el("th", { scope: "col", text: "Detail" }))),
      el("tbody", {}, ...section.rows.map((row) => el("tr", {}, el("td", { text: row.name }), el("td", { text: row.state }), el("td", { text: row.detail || "" })))));
    return section.note ? [table, el("p", { class: "note", text: section.note })] : [table];
  }));
}

// The activity: every tool call of the run as it ends, newest first, opened on demand.
const callItems = new Map(); // call id → <li>, kept across events so an opened call stays open
let callsTotal = 0;
let callsRecord = null;
let callsKept = 200;

function receiveCalls(message) {
  // On a reconnect the list is sent again: calls already shown stay as they are (an opened one stays open).
  callsKept = message.limit;
  callsRecord = message.record;
  callsTotal = message.total;
  for (const call of message.calls) addCall(call);
  renderCallCount();
}

function receiveCall(message) {
  callsTotal = message.total;
  addCall(message.call);
  renderCallCount();
}

function addCall(call) {
  if (callItems.has(call.id)) return;
  const item = renderCall(call);
  callItems.set(call.id, item);
  $("calls").prepend(item);
  addChoice($("filter-tool"), call.tool);
  addChoice($("filter-surface"), call.surface);
  // The page keeps what the server keeps; older calls stay in calls.jsonl.
  while (callItems.size > callsKept) {
    const [oldest, node] = callItems.entries().next().value;
    node.remove();
    callItems.delete(oldest);
  }
  applyFilter(item);
}

function addChoice(select, value) {
  if ([...select.options].some((option) => option.value === value)) return;
  const options = [...select.options].slice(1).map((option) => option.value).concat(value).sort();
  select.append(el("option", { value, text: value }));
  // Kept sorted so a long list reads alphabetically.
  for (const name of options) select.append([...select.options].find((option) => option.value === name));
}

const RESULT_WORDS = { ok: "ok", error: "failed", cancelled: "cancelled" };

function renderCall(call) {
  const size = call.answer_bytes >= 1024 ? (call.answer_bytes / 1024).toFixed(1) + " KB" : call.answer_bytes + " B";
  const summary = el("summary", {},
    el("span", { class: "num", text: "#" + call.id }),
    el("span", { class: "tool", text: call.tool }),
    el("span", { class: "result " + call.outcome, text: (RESULT_WORDS[call.outcome] || call.outcome) + (call.code ? " (" + call.code + ")" : "") }),
    el("span", { class: "meta", text: "surface " + call.surface }),
    el("span", { class: "meta", text: call.duration_ms + " ms · " + size }),
    el("span", { class: "meta", text: clock(call.time) }),
    call.files ? el("span", { class: "meta", text: "wrote " + call.files.join(", ") }) : null,
    el("span", { class: "args", text: oneLine(call.arguments) }));
  const body = el("div", { class: "call-body" });
  const details = el("details", {}, summary, body);
  details.addEventListener("toggle", () => {
    if (details.open && !body.dataset.loaded) openCall(call, body);
  });
  const item = el("li", { "data-tool": call.tool, "data-surface": call.surface, "data-outcome": call.outcome }, details);
  return item;
}

/** The arguments on one line, cut at 160 characters; a `description` (eval's) first, as it says what the call is for. */
function oneLine(args) {
  if (args === undefined || args === null) return "(no arguments)";
  const entries = typeof args === "object" ? Object.entries(args).sort(([a], [b]) => (b === "description") - (a === "description")) : null;
  const text = entries ? entries.map(([key, value]) => key + ": " + JSON.stringify(value)).join(", ") : JSON.stringify(args);
  return text.length > 160 ? text.slice(0, 160) + "…" : text || "(no arguments)";
}

async function openCall(call, body) {
  body.replaceChildren(el("p", { class: "empty", text: "Loading…" }));
  let reply = null;
  let status = 0;
  try {
    const response = await fetch("/operator/calls/" + call.id, { headers: { [SECRET_HEADER]: secret }, cache: "no-store" });
    status = response.status;
    if (status === 401) return lock(LOCKED_WHY);
    reply = await response.json().catch(() => null);
  } catch (e) {
    body.replaceChildren(el("p", { class: "error", text: "Could not reach the sidecar: " + e.message }));
    return;
  }
  if (status !== 200 || !reply || !reply.entry) {
    body.replaceChildren(el("p", { class: "error", text: (reply && reply.error && reply.error.message) || "The sidecar did not return this call (HTTP " + status + ")." }));
    return;
  }
  body.dataset.loaded = "1";
  const parts = [el("h4", { text: "Arguments" }), el("pre", { text: JSON.stringify(reply.entry.arguments ?? null, null, 2) })];
  if (reply.entry.files) parts.push(el("h4", { text: "Files written" }), el("p", { text: reply.entry.files.join(", ") }));
  parts.push(el("h4", { text: call.outcome === "error" ? "Answer (an error" + (call.code ? ": " + call.code : "") + ")" : "Answer" }));
  parts.push(reply.text ? answerText(reply.text) : el("p", { class: "empty", text: reply.images.length ? "(no text)" : "(empty answer)" }));
  reply.images.forEach((image, k) => parts.push(el("img", { src: "data:" + image.mimeType + ";base64," + image.data, alt: "Image " + (k + 1) + " of the answer (" + image.mimeType + ")" })));
  if (reply.imagesDropped) parts.push(el("p", { class: "empty", text: reply.imagesDropped + " image(s) of this answer are no longer kept by the page (it keeps the newest 16 MB of images)." }));
  body.replaceChildren(...parts);
}

/** The answer's text; a unified diff in it (ast_edit, resolve, lsp_rename) is coloured line by line. */
function answerText(text) {
  const pre = el("pre", {});
  if (!/^@@ -\d/m.test(text)) {
    pre.textContent = text;
    return pre;
  }
  for (const line of text.split("\n")) {
    const kind = line.startsWith("@@") ? "hunk" : line.startsWith("+") && !line.startsWith("+++") ? "add" : line.startsWith("-") && !line.startsWith("---") ? "del" : null;
    pre.append(kind ? el("span", { class: kind, text: line }) : document.createTextNode(line), "\n");
  }
  return pre;
}

function applyFilter(item) {
  const tool = $("filter-tool").value;
  const surface = $("filter-surface").value;
  const failed = $("filter-failed").checked;
  item.hidden = (tool && item.dataset.tool !== tool) || (surface && item.dataset.surface !== surface) || (failed && (item.dataset.outcome === "ok" || item.dataset.outcome === "running"));
}

/** The calls not ended yet, oldest first, each with a clock that counts up. */
function renderRunning(running) {
  $("running").replaceChildren(...running.map((call) => {
    const elapsed = el("span", { class: "elapsed", "data-since": call.time });
    tickElapsed(elapsed);
    const item = el("li", { "data-tool": call.tool, "data-surface": call.surface, "data-outcome": "running" },
      el("span", { class: "tool", text: call.tool }),
      elapsed,
      el("span", { class: "meta", text: "surface " + call.surface }),
      el("span", { class: "meta", text: "since " + clock(call.time) }),
      el("span", { class: "args", text: oneLine(call.arguments) }));
    addChoice($("filter-tool"), call.tool);
    addChoice($("filter-surface"), call.surface);
    applyFilter(item);
    return item;
  }));
}

function tickElapsed(node) {
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(node.dataset.since)) / 1000));
  node.textContent = "running for " + (seconds < 60 ? seconds + " s" : Math.floor(seconds / 60) + " min " + (seconds % 60) + " s");
}
setInterval(() => document.querySelectorAll(".elapsed").forEach(tickElapsed), 1000);

function renderCallCount() {
  let shown = 0;
  for (const item of callItems.values()) if (!item.hidden) shown++;
  const filtered = shown !== callItems.size;
  const older = callsTotal > callItems.size
    ? " The page keeps the newest " + callItems.size + " of " + callsTotal + " calls" + (callsRecord ? "; every call is in " + callsRecord + "." : ".")
    : "";
  $("calls-count").textContent = callItems.size ? (filtered ? shown + " of " + callItems.size + " calls match the filter." : callItems.size + " call" + (callItems.size === 1 ? "" : "s") + ", newest first.") + older : "";
  $("calls-empty").hidden = callItems.size > 0;
}

for (const id of ["filter-tool", "filter-surface", "filter-failed"]) {
  $(id).addEventListener("change", () => {
    for (const item of callItems.values()) applyFilter(item);
    for (const item of $("running").children) applyFilter(item);
    renderCallCount();
  });
}
