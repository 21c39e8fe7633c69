// app.js is the page: it asks its source — the server (electsim web) or the run inside the
// page (a replay) — for the session at a step or an instant, and draws what it answers.
import { drawPicture, fmtDur, legendMarkup, legendShows, setKinds } from "./draw.js";
import { readReplay, replaySource } from "./replaysource.js";

const $ = (id) => document.getElementById(id);
// The playback rates of the terminal UI: virtual time played per second of wall time.
const SPEEDS = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000].map((ms) => ms * 1e6);
const THEMES = ["auto", "dark", "light", "contrast"];
const MAX_ROWS = 400; // the log shows at most the latest rows that match

const ui = {
  source: null, view: null, log: [], gen: -1, playing: false, queued: 0, speed: 1,
  selected: "", lastFrame: 0, history: false, chain: Promise.resolve(null),
  legend: "", seekTo: null, seeking: false, dragging: false,
  narrow: false, // the canvas is a phone's width: its type drawn larger (kept by a ResizeObserver, not read each frame)
};

// liveSource asks the server.
function liveSource(id) {
  const call = async (op, body) => {
    const res = await fetch(`api/sessions/${id}/${op}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => ({ error: `the server answered ${res.status}` }));
    if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
    return data;
  };
  return {
    live: true,
    state: (r) => call("state", r),
    next: (r) => call("next", r),
    back: (r) => call("back", r),
    play: (r) => call("play", r),
    restart: (r) => call("restart", r),
    act: (r) => call("act", r),
    save: () => call("save", {}),
    async replay() {
      const res = await fetch(`api/sessions/${id}/replay`, { method: "POST" });
      if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error || `the server answered ${res.status}`);
      return res.blob();
    },
  };
}

async function openLive(scenario) {
  const want = scenario ?? sessionStorage.getItem("electsim-scenario") ?? "";
  const old = sessionStorage.getItem("electsim-session");
  if (old && scenario === undefined) {
    try {
      const src = liveSource(old);
      const v = await src.state({ from: 0, gen: -1 });
      return { src, v };
    } catch { /* closed or idle too long: open another */ }
  }
  if (old) await fetch(`api/sessions/${old}`, { method: "DELETE" }).catch(() => {});
  const res = await fetch("api/sessions", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ scenario: want }) });
  const v = await res.json();
  if (!res.ok) throw new Error(v.error);
  sessionStorage.setItem("electsim-session", v.id);
  sessionStorage.setItem("electsim-scenario", want);
  return { src: liveSource(v.id), v };
}

// request asks the source for something and shows the answer. Requests go one at a time, in
// the order asked: what the user asks for waits for a playback frame in flight, never dropped.
function request(op, extra = {}) {
  ui.queued++;
  busy();
  const run = async () => {
    try {
      const v = await ui.source[op]({ from: ui.log.length, gen: ui.gen, ...extra });
      show(v);
      return v;
    } catch (e) {
      say(e.message, true);
      return null;
    } finally {
      ui.queued--;
      busy();
    }
  };
  ui.chain = ui.chain.then(run, run);
  return ui.chain;
}

// busy marks the page while a request waits or is in flight, or a seek is under way: a test (or a
// script) waits for body[data-busy="false"] to read a settled page.
function busy() {
  document.body.dataset.busy = ui.queued > 0 || ui.seeking ? "true" : "false";
}

function show(v) {
  ui.view = v;
  if (v.gen !== ui.gen) { ui.log = []; ui.gen = v.gen; }
  ui.log.length = Math.min(ui.log.length, v.from);
  ui.log.push(...v.log);
  setKinds(v.kinds);
  $("title").textContent = v.title;
  document.title = `${v.title} — electsim`;
  const step = $("step"), time = $("time");
  step.textContent = v.step; step.dataset.step = v.step;
  time.textContent = fmtDur(v.picture.at); time.dataset.time = v.picture.at;
  $("canvas").innerHTML = drawPicture(v.picture, { selected: ui.selected, groupLines: v.groupLines, narrow: ui.narrow });
  window.electsimPicture = v.picture; // the picture drawn, for tests and the curious
  showLegend(v.picture);
  showAlarm(v.picture);
  showSlider(v);
  $("break-note").hidden = !v.atBreak;
  $("play").textContent = ui.playing ? "❚❚ pause" : "▶ play";
  if (v.message) say(v.message, false);
  showNarration();
  showNode();
  showLog();
  // An algorithm of groups has a coordinator per group by design: its groups, not an alarm.
  $("groups-box").hidden = !v.groups;
  if (v.groups) $("groups").textContent = v.groups.join("\n");
  $("verdict-box").hidden = !v.verdicts;
  if (v.verdicts) $("verdicts").textContent = v.verdicts.join("\n");
  showMode();
}

// showLegend writes the legend from the picture's (once a run), and shows the entries that show
// only at times while the picture has one.
function showLegend(pic) {
  const text = JSON.stringify(pic.legend || []);
  if (text !== ui.legend) {
    ui.legend = text;
    $("legend").innerHTML = legendMarkup(pic.legend);
  }
  const shows = legendShows(pic);
  for (const li of $("legend").querySelectorAll("[data-when]")) {
    if (li.classList.contains("off") === !!shows[li.dataset.when]) li.classList.toggle("off", !shows[li.dataset.when]);
  }
}

// showAlarm says, above the canvas, who believes it leads while two or more do: the TUI's words.
function showAlarm(pic) {
  const box = $("alarm"), leaders = pic.splitBrain || [], key = leaders.join(" ");
  if (box.dataset.leaders === key) return; // unchanged: the DOM is left alone
  box.dataset.leaders = key;
  if (leaders.length < 2) { box.textContent = ""; box.className = ""; return; }
  const names = leaders.length === 2 ? `${leaders[0]} and ${leaders[1]}` : `${leaders.slice(0, -1).join(", ")} and ${leaders[leaders.length - 1]}`;
  box.textContent = `⚠ SPLIT BRAIN — ${names} ${leaders.length > 2 ? "all" : "both"} believe they lead`;
  box.className = "split-brain";
}

// showSlider puts the time slider at the instant drawn, over the whole run, unless it is being
// dragged.
function showSlider(v) {
  const sl = $("slider"), max = String(v.runFor / 1e6), value = String(v.picture.at / 1e6);
  if (sl.max !== max) { sl.max = max; $("slider-end").textContent = fmtDur(v.runFor); }
  if (!ui.dragging && !ui.seeking && sl.value !== value) sl.value = value;
}

// seek shows the run at instant to (nanoseconds), exactly, as stepping there would: back to the
// last step at or before it, or on to it past any break; the instant drawn is to. Drags come
// faster than answers: only the latest instant asked for is sought.
async function seek(to) {
  ui.seekTo = to;
  if (ui.seeking) return;
  ui.seeking = true;
  busy();
  setPlaying(false);
  try {
    while (ui.seekTo !== null) {
      const t = ui.seekTo;
      ui.seekTo = null;
      let after = 0; // the steps shown that are due after t
      for (let i = ui.log.length - 1; i >= 0 && ui.log[i].at > t; i--) after++;
      if (after > 0 && !(await request("back", { n: after }))) break;
      for (let i = 0; i < 10000; i++) { // each answer stops at a break, if one is on the way
        const v = await request("play", { to: t });
        if (!v || v.done || v.picture.at >= t) break;
      }
    }
  } finally {
    ui.seeking = false;
    ui.seekTo = null;
    busy();
    if (ui.view) showSlider(ui.view);
  }
}

// goOn goes on from a break, playing, as the TUI's n does; elsewhere it steps.
function goOn() {
  if (ui.view && ui.view.atBreak && !ui.view.done) setPlaying(true);
  else request("next");
}

// nextBreak plays on, every step shown, to the next break or the end of the run.
function nextBreak() {
  setPlaying(false);
  request("play", { to: ui.view.runFor });
}

// present switches the presenter's view: full screen, large type, the canvas and the narration
// first. Leaving full screen (esc) leaves it.
function present() {
  const on = !document.body.classList.contains("present");
  document.body.classList.toggle("present", on);
  try {
    if (on && !document.fullscreenElement) document.documentElement.requestFullscreen?.().catch(() => {});
    if (!on && document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
  } catch { /* not allowed here: large type all the same */ }
  if (ui.view) show(ui.view);
}

function showMode() {
  const v = ui.view;
  const mode = v.done ? "the run has ended" : ui.playing ? "playing" : v.atBreak ? "break" : "paused";
  $("mode").textContent = ui.source.live ? mode : `replay · ${mode}`;
}

function say(text, error) {
  const m = $("message");
  m.textContent = text;
  m.className = error ? "error" : "";
}

function showNarration() {
  const box = $("narration");
  const lines = ui.history ? ui.log.filter((r) => r.say).map((r) => `${fmtDur(r.at)}  ${r.say}`) : ui.view.narration;
  box.replaceChildren(...lines.map((l) => Object.assign(document.createElement("p"), { textContent: l })));
  if (!lines.length && ui.view.step === 0) {
    box.append(Object.assign(document.createElement("p"), { className: "hint", textContent: "The nodes have not booted yet: ▶ play (space) plays the run, step ▶ (→) goes one step at a time, ? lists the keys." }));
  } else if (!lines.length && !ui.view.name) {
    box.append(Object.assign(document.createElement("p"), { className: "hint", textContent: "A run the flags describe has no narration: the event log says what each node did, and why." }));
  }
  $("history-button").textContent = ui.history ? "now" : "history";
}

function showNode() {
  const n = ui.view.picture.nodes.find((x) => x.id === ui.selected);
  $("node-box").hidden = !n;
  if (!n) return;
  $("node-title").textContent = `node ${n.id}`;
  let state = n.status.replace("-", " ");
  if (n.role) state += ` (${n.role})`;
  if (n.leader) state += ` · believes ${n.leader} leads`;
  if (n.term) state += ` · term ${n.term}`;
  if (n.group) state += ` · partition group ${n.group}`;
  $("node-state").textContent = state;
  $("node-timers").replaceChildren(...(n.timers || []).map((t) =>
    Object.assign(document.createElement("li"), { textContent: `${t.name}: ${fmtDur(t.left)} left of ${fmtDur(t.total)}, fires at ${fmtDur(t.fires)}` })));
  for (const b of $("node-actions").querySelectorAll("button")) b.disabled = !ui.source.live;
}

function rowText(r) {
  return `${r.who} ${r.event} ${(r.parts || []).join(" · ")}`;
}

function showLog() {
  const words = $("filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const routine = $("routine").checked;
  const rows = [];
  for (let i = ui.log.length - 1; i >= 0 && rows.length < MAX_ROWS; i--) {
    const r = ui.log[i];
    if (r.routine && !routine) continue;
    const text = rowText(r).toLowerCase();
    if (words.every((w) => text.includes(w))) rows.push(r);
  }
  rows.reverse();
  const ol = $("log");
  ol.replaceChildren(...rows.map((r) => {
    const li = document.createElement("li");
    li.dataset.row = r.step;
    if (r.say) li.className = "say"; else if (r.break) li.className = "break";
    else if ((r.parts || []).some((p) => p.startsWith("✗"))) li.className = "dropped";
    const head = Object.assign(document.createElement("span"), { className: "when", textContent: `${fmtDur(r.at)} #${r.step}` });
    const who = Object.assign(document.createElement("span"), { className: "who", textContent: r.who });
    const ev = Object.assign(document.createElement("span"), { className: "event", textContent: r.say ? `“${r.say}”` : r.event });
    const parts = Object.assign(document.createElement("span"), { className: "parts", textContent: r.say ? "" : (r.parts || []).join(" · ") });
    li.append(head, who, ev, parts);
    return li;
  }));
  ol.scrollTop = ol.scrollHeight;
}

// Playback: once a frame, play virtual time on by the rate times the frame's wall time.
function frame(now) {
  requestAnimationFrame(frame);
  if (!ui.playing || ui.queued > 0 || !ui.view) { ui.lastFrame = now; return; }
  const dt = Math.min(100, now - (ui.lastFrame || now)) / 1000;
  ui.lastFrame = now;
  const to = Math.round(ui.view.picture.at + SPEEDS[ui.speed] * dt);
  request("play", { to }).then((v) => {
    if (v && (v.atBreak && v.picture.at === v.time || v.done)) setPlaying(false);
  });
}

function setPlaying(on) {
  if (on && ui.view && ui.view.done) { say("the run has ended: R starts it again", false); on = false; }
  ui.playing = on;
  $("play").textContent = on ? "❚❚ pause" : "▶ play";
  if (ui.view) showMode();
}

function setSpeed(i) {
  ui.speed = Math.max(0, Math.min(SPEEDS.length - 1, i));
  $("speed").textContent = `${fmtDur(SPEEDS[ui.speed])}/s`;
}

async function act(verb) {
  if (!ui.selected) { say("select a node first: click it, or tab", true); return; }
  await command(`${verb} ${ui.selected}`, verb === "pause");
}

async function command(text, toggle = false) {
  if (!ui.source.live) { say("this is a replay of a run: acting on it needs electsim web", true); return false; }
  setPlaying(false);
  return (await request("act", { command: text, toggle })) !== null;
}

function download(name, blob) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

async function save() {
  try {
    const s = await ui.source.save();
    download(s.name, new Blob([s.text], { type: "text/plain" }));
    say(`saved as ${s.name}: electsim run ${s.name} replays it`, false);
  } catch (e) { say(e.message, true); }
}

async function replayFile() {
  try {
    const blob = await ui.source.replay();
    download(`${ui.view.name || "session"}.html`, blob);
    say("the replay opens in any browser, with no network", false);
  } catch (e) { say(e.message, true); }
}

function selectBy(delta) {
  const ids = ui.view.picture.nodes.map((n) => n.id);
  const i = ids.indexOf(ui.selected);
  ui.selected = ids[(i + delta + ids.length) % ids.length] ?? "";
  show(ui.view);
}

function setTheme(name) {
  document.documentElement.dataset.theme = name;
  $("theme").textContent = `theme: ${name}`;
  try { localStorage.setItem("electsim-theme", name); } catch { /* file:// may refuse */ }
}

function onKey(e) {
  // The slider takes no keys of its own: the page's step and step back are its arrows.
  if (e.target.closest("input:not([type=range]), select, textarea") || e.ctrlKey || e.metaKey || e.altKey) {
    if (e.key === "Escape") e.target.blur();
    return;
  }
  if ($("help").open && e.key !== "?") return;
  const k = e.key;
  const keys = {
    " ": () => setPlaying(!ui.playing),
    ArrowRight: () => request("next"), l: () => request("next"), ".": () => request("next"),
    ArrowLeft: () => request("back"), h: () => request("back"), ",": () => request("back"),
    n: goOn, Enter: goOn,
    // A presenter's clicker sends PageDown and PageUp: a step, a step back.
    PageDown: () => request("next"), PageUp: () => request("back"),
    b: nextBreak, f: present,
    "+": () => setSpeed(ui.speed + 1), "]": () => setSpeed(ui.speed + 1), "=": () => setSpeed(ui.speed + 1),
    "-": () => setSpeed(ui.speed - 1), "[": () => setSpeed(ui.speed - 1),
    Tab: () => selectBy(e.shiftKey ? -1 : 1), j: () => selectBy(1), k: () => selectBy(-1),
    c: () => act("crash"), r: () => act("recover"), p: () => act("pause"), e: () => act("elect"),
    ":": () => $("command").focus(), "/": () => $("filter").focus(),
    s: () => save(), H: () => { ui.history = !ui.history; showNarration(); },
    t: () => setTheme(THEMES[(THEMES.indexOf(document.documentElement.dataset.theme) + 1) % THEMES.length]),
    R: () => { setPlaying(false); request("restart"); },
    "?": () => ($("help").open ? $("help").close() : $("help").showModal()),
    Escape: () => { ui.selected = ""; show(ui.view); },
  };
  if (/^[1-9]$/.test(k)) {
    const n = ui.view.picture.nodes[+k - 1];
    if (n) { ui.selected = n.id; show(ui.view); }
    e.preventDefault();
    return;
  }
  if (keys[k]) { e.preventDefault(); keys[k](); }
}

function wire() {
  $("play").onclick = () => setPlaying(!ui.playing);
  $("next").onclick = () => request("next");
  $("back").onclick = () => request("back");
  $("restart").onclick = () => { setPlaying(false); request("restart"); };
  $("faster").onclick = () => setSpeed(ui.speed + 1);
  $("slower").onclick = () => setSpeed(ui.speed - 1);
  $("save").onclick = save;
  $("download-replay").onclick = replayFile;
  $("theme").onclick = () => setTheme(THEMES[(THEMES.indexOf(document.documentElement.dataset.theme) + 1) % THEMES.length]);
  $("help-button").onclick = () => $("help").showModal();
  $("history-button").onclick = () => { ui.history = !ui.history; showNarration(); };
  $("filter").oninput = showLog;
  $("routine").onchange = showLog;
  $("canvas").addEventListener("click", (e) => {
    const g = e.target.closest("[data-node]");
    ui.selected = g ? g.dataset.node : "";
    show(ui.view);
  });
  for (const b of $("node-actions").querySelectorAll("button")) b.onclick = () => act(b.dataset.act);
  const sl = $("slider");
  sl.addEventListener("pointerdown", () => { ui.dragging = true; });
  document.addEventListener("pointerup", () => { ui.dragging = false; });
  sl.addEventListener("input", () => seek(Math.round(+sl.value * 1e6)));
  sl.addEventListener("change", () => { ui.dragging = false; });
  // The canvas's width decides its type's size; reading it each frame would force a layout.
  new ResizeObserver(([e]) => {
    const narrow = e.contentRect.width < 560;
    if (narrow !== ui.narrow) { ui.narrow = narrow; if (ui.view) show(ui.view); }
  }).observe($("canvas"));
  $("next-break").onclick = nextBreak;
  $("present").onclick = present;
  document.addEventListener("fullscreenchange", () => {
    if (!document.fullscreenElement && document.body.classList.contains("present")) present();
  });
  $("command-form").onsubmit = async (e) => {
    e.preventDefault();
    const text = $("command").value.trim();
    if (text && await command(text)) $("command").value = "";
  };
  document.addEventListener("keydown", onKey);
  // A button clicked gives the focus back: space and enter are the page's keys, not a second click.
  document.addEventListener("click", (e) => { const b = e.target.closest("button"); if (b && !b.closest("dialog")) b.blur(); });
}

async function chooser(current) {
  const sel = $("chooser");
  if (!ui.source.live) { $("chooser-label").hidden = true; return; }
  const list = await (await fetch("api/scenarios")).json();
  sel.replaceChildren(...list.map((s) => Object.assign(document.createElement("option"), { value: s.name, textContent: `${s.name} — ${s.title}` })));
  if (!list.some((s) => s.name === current)) {
    sel.prepend(Object.assign(document.createElement("option"), { value: "", textContent: current ? current : "the run the command line describes" }));
  }
  sel.value = list.some((s) => s.name === current) ? current : "";
  sel.onchange = async () => {
    setPlaying(false);
    sel.disabled = true; // one switch at a time: each closes the session before it
    try {
      const { src, v } = await openLive(sel.value);
      ui.source = src; ui.gen = -1; ui.selected = ""; ui.log = [];
      show(v);
    } catch (e) { say(e.message, true); }
    sel.disabled = false;
    sel.blur();
  };
}

async function main() {
  wire();
  let theme = "auto";
  try { theme = localStorage.getItem("electsim-theme") || "auto"; } catch { /* file:// may refuse */ }
  const asked = new URLSearchParams(location.search).get("theme"); // ?theme=contrast, for a projector
  setTheme(THEMES.includes(asked) ? asked : THEMES.includes(theme) ? theme : "auto");
  setSpeed(1);
  const embedded = $("replay");
  let v;
  try {
    if (embedded) {
      const src = replaySource(await readReplay(embedded));
      ui.source = src;
      const m = /^#(?:step=(\d+)|(end))$/.exec(location.hash);
      v = await src.goto(m ? (m[2] ? src.last : +m[1]) : 0, { from: 0, gen: -1 });
      window.addEventListener("hashchange", async () => {
        const h = /^#(?:step=(\d+)|(end))$/.exec(location.hash);
        if (h) show(await src.goto(h[2] ? src.last : +h[1], { from: 0, gen: -1 }));
      });
    } else {
      const { src, v: first } = await openLive(undefined);
      ui.source = src;
      v = first;
    }
  } catch (e) {
    say(`cannot open the session: ${e.message}`, true);
    return;
  }
  $("download-replay").hidden = !ui.source.live; // a replay is the file already
  show(v);
  document.body.dataset.firstPicture = Math.round(performance.now()); // ms from navigation: the benchmark reads it
  await chooser(v.name).catch((e) => say(e.message, true));
  document.body.dataset.ready = "true";
  requestAnimationFrame(frame);
}

main();
