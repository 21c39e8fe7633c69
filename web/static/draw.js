// draw.js draws a Picture (docs/picture.md) as SVG: it scales and styles, nothing more. What a
// mark means comes from the picture's legend, the table the legend beside the canvas is written
// from, so that the two never disagree.

export const W = 1000, H = 760;
const MARGIN_X = 110, MARGIN_TOP = 100, MARGIN_BOTTOM = 150;

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

// fmtDur writes nanoseconds for people: 412ms, 1.25s, 850µs.
export function fmtDur(ns) {
  const ms = ns / 1e6;
  if (ms === 0) return "0ms";
  if (Math.abs(ms) < 1) return `${+(ns / 1e3).toFixed(0)}µs`;
  if (Math.abs(ms) < 1000) return `${+ms.toFixed(ms < 10 ? 2 : 1)}ms`;
  return `${+(ms / 1000).toFixed(3)}s`;
}

// place is where node n is drawn: its centre, its radius r, and rim, the radius lines stop at —
// outside the ring its timer runs down on.
function place(n, r, arcs) {
  return { x: MARGIN_X + n.x * (W - 2 * MARGIN_X), y: MARGIN_TOP + n.y * (H - MARGIN_TOP - MARGIN_BOTTOM), r, rim: arcs ? r + 16 : r };
}

// spacing returns the nodes' radius and how crowded their labels are: by their number, and —
// where they are few enough to measure — by how close the two closest sit, so that a line's or a
// graph's nodes never touch.
function spacing(nodes) {
  const count = nodes.length;
  let r = count > 32 ? 22 : count > 16 ? 30 : count > 8 ? 38 : 46;
  let density = count > 32 ? "crowd" : count > 12 ? "many" : "";
  if (count > 1 && count <= 48) {
    let near = Infinity;
    for (let i = 0; i < count; i++) {
      const a = place(nodes[i], 0, false);
      for (let j = i + 1; j < count; j++) {
        const b = place(nodes[j], 0, false);
        near = Math.min(near, Math.hypot(a.x - b.x, a.y - b.y));
      }
    }
    r = Math.max(14, Math.min(r, Math.floor(near * 0.33)));
    if (near < 70) density = "crowd";
    else if (near < 115 && !density) density = "many";
  }
  return { r, density };
}

// marksOf reads the picture's legend: the mark of each status, of a lost message, a block.
function marksOf(pic) {
  const glyph = new Map();
  for (const m of pic.legend || []) if (!m.kind) glyph.set(m.class, m.mark);
  return glyph;
}

// drawPicture returns the SVG markup of pic. opts: selected, the selected node's id ("" for
// none); groupLines, set for an algorithm of groups (algo.Info.Groups): each member's line to its
// coordinator is drawn bold; narrow, set on a phone's width: larger type, shorter labels.
export function drawPicture(pic, { selected = "", groupLines = false, narrow = false } = {}) {
  const nodes = pic.nodes || [];
  const at = new Map();
  const { r, density } = spacing(nodes);
  nodes.forEach((n) => at.set(n.id, place(n, r, nodes.length <= 16))); // lines keep clear of the timers' rings
  const glyph = marksOf(pic);
  const out = [];
  const edges = pic.edges || [];
  const shaped = edges.length > 0; // a topology laid out as its shape: its links, not every pair
  if (pic.directed && shaped) {
    out.push(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="18" markerHeight="18" orient="auto"><path class="arrow" d="M0,1 L10,5 L0,9 z"/></marker></defs>`);
  }
  out.push(...caption(pic, nodes.length));
  out.push(...linksOf(pic, nodes, at, edges, shaped));
  // A partition blocks every pair across it; on a topology, only its links between the groups are drawn.
  const linked = new Set(edges.map(([a, b]) => key(a, b)));
  const blocked = pic.blocked.filter((b) => (!shaped || b.why === "cut" || linked.has(key(b.from, b.to))) && at.has(b.from) && at.has(b.to));
  if (groupLines) out.push(...groupLinesOf(nodes, at, new Set(blocked.map((b) => key(b.from, b.to)))));
  const blockedDone = new Set();
  for (const b of blocked) {
    const k = key(b.from, b.to);
    const pa = at.get(b.from), pb = at.get(b.to);
    out.push(`<line class="blocked ${esc(b.why)}" data-blocked="${esc(b.from)}-${esc(b.to)}" x1="${pa.x}" y1="${pa.y}" x2="${pb.x}" y2="${pb.y}"/>`);
    if (!blockedDone.has(k)) {
      blockedDone.add(k);
      out.push(`<text class="block-mark" x="${(pa.x + pb.x) / 2}" y="${(pa.y + pb.y) / 2}">${esc(glyph.get("blocked") || "╳")}</text>`);
    }
  }
  // Nodes with their timers, their labels, then drops and packets over them all: what moves is
  // what the class follows, and a packet passes a label in a moment.
  const words = nodes.length <= 8 && !narrow; // room for a status's word
  const arcs = nodes.length <= 16;
  for (const n of nodes) out.push(nodeMarkup(n, at.get(n.id), n.id === selected, arcs || n.id === selected));
  const timerText = nodes.length <= (narrow ? 4 : 12);
  for (const n of nodes) out.push(labelMarkup(n, at.get(n.id), glyph, words || n.id === selected || nodes.length <= 8 && n.status === "not-started", timerText || n.id === selected, narrow));
  for (const d of pic.drops) {
    const pa = at.get(d.from), pb = at.get(d.to);
    if (!pa || !pb) continue;
    const f = d.fraction ? 0.85 : 0.15;
    out.push(`<text class="drop" data-kind="${esc(d.kind)}" data-drop="${esc(d.reason)}" x="${f1(pa.x + (pb.x - pa.x) * f)}" y="${f1(pa.y + (pb.y - pa.y) * f)}"><title>${esc(d.label)} lost: ${esc(d.reason)}</title>${esc(glyph.get("lost") || "✗")}</text>`);
  }
  for (const pk of pic.packets) {
    const pa = at.get(pk.from), pb = at.get(pk.to);
    if (pa && pb) out.push(packetMarkup(pk, pa, pb, r, shaped && !pic.directed, narrow ? 1.6 : 1));
  }
  return `<g class="scene ${density}${narrow ? " narrow" : ""}">${out.join("")}</g>`;
}

// linksOf returns the lines between nodes: a topology's every link, faintly (a one-way link's
// arrow at its receiver); on the complete graph (or a topology in rows, too big to draw its
// links) every line up to 8 nodes, and above those a packet, a block or a drop uses.
function linksOf(pic, nodes, at, edges, shaped) {
  const out = [];
  if (shaped) {
    const mark = pic.directed ? ` marker-end="url(#arrow)"` : "";
    for (const [a, b] of edges) {
      const pa = at.get(a), pb = at.get(b);
      if (!pa || !pb) continue;
      const [sx, sy, ex, ey] = rims(pa, pb, pic.directed ? 4 : 0);
      out.push(`<line class="link edge" data-edge="${esc(a)}-${esc(b)}" x1="${f1(sx)}" y1="${f1(sy)}" x2="${f1(ex)}" y2="${f1(ey)}"${mark}/>`);
    }
    return out;
  }
  const used = new Set();
  for (const p of pic.packets) used.add(key(p.from, p.to));
  for (const b of pic.blocked) used.add(key(b.from, b.to));
  for (const d of pic.drops) used.add(key(d.from, d.to));
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i], b = nodes[j];
      if ((nodes.length > 8 || pic.topology) && !used.has(key(a.id, b.id))) continue;
      const pa = at.get(a.id), pb = at.get(b.id);
      out.push(`<line class="link" x1="${pa.x}" y1="${pa.y}" x2="${pb.x}" y2="${pb.y}"/>`);
    }
  }
  return out;
}

// nodeMarkup is a node's circle, its id, and its nearest timer as an arc round it that runs down
// clockwise from the top, as RaftScope draws the election timeout.
function nodeMarkup(n, p, selected, arcs) {
  const sel = selected ? " selected" : "";
  const group = n.group ? ` group-${((n.group - 1) % 4) + 1}` : "";
  const out = [`<g class="node ${esc(n.status)}${sel}${group}" data-node="${esc(n.id)}" data-status="${esc(n.status)}" tabindex="0" role="button" aria-label="node ${esc(n.id)}, ${esc(n.status.replace("-", " "))}">`];
  out.push(`<circle class="body" cx="${p.x}" cy="${p.y}" r="${p.r}"/>`);
  // A long id (up to 19 digits) is drawn smaller, to stay inside its circle.
  const id = String(n.id), size = id.length > 3 ? ` style="font-size:${Math.max(8, Math.floor((p.r * 3.2) / id.length))}px"` : "";
  out.push(`<text class="id" x="${p.x}" y="${p.y}"${size}>${esc(id)}</text>`);
  const t = (n.timers || [])[0];
  if (t && arcs && n.status !== "crashed") {
    const frac = t.total > 0 ? Math.max(0, Math.min(1, t.left / t.total)) : 0;
    out.push(`<circle class="timer-track" cx="${p.x}" cy="${p.y}" r="${p.r + 12}"/>`);
    out.push(`<path class="timer" data-timer="${esc(t.name)}" data-left="${t.left}" d="${arc(p.x, p.y, p.r + 12, frac)}"/>`);
  }
  out.push(`</g>`);
  return out.join("");
}

// arc is the path of a circle's arc from the top, clockwise, over frac of the whole.
function arc(cx, cy, r, frac) {
  if (frac >= 0.9995) return `M${f1(cx)},${f1(cy - r)} a${r},${r} 0 1,1 0,${2 * r} a${r},${r} 0 1,1 0,${-2 * r}`;
  if (frac <= 0) return `M${f1(cx)},${f1(cy - r)}`;
  const a = -Math.PI / 2 + 2 * Math.PI * frac;
  return `M${f1(cx)},${f1(cy - r)} A${r},${r} 0 ${frac > 0.5 ? 1 : 0},1 ${f1(cx + r * Math.cos(a))},${f1(cy + r * Math.sin(a))}`;
}

// labelMarkup is what is written about a node: above it, its status's glyph — and its word where
// there is room — the leader it believes in, its term; under it, its nearest timer's name and
// time left; under that, what it holds while paused.
function labelMarkup(n, p, glyph, words, timerText, narrow) {
  const out = [];
  let label = glyph.get(n.status) || "";
  if (n.role && n.status !== "crashed" && n.status !== "paused") label = glyph.get("role") || "";
  if (words) label += ` ${n.role ? n.role.split(" ")[0] : n.status.replace("-", " ")}`;
  if (n.leader && n.status !== "leader" && n.status !== "crashed") label += n.leader === n.id ? " ★" : ` →${n.leader}`;
  if (n.term && n.status !== "crashed") label += ` t${n.term}`;
  out.push(`<text class="label ${esc(n.status)}" x="${p.x}" y="${p.y - p.r - 20}">${esc(label.trim())}</text>`);
  const t = (n.timers || [])[0];
  const line = narrow ? 36 : 26;
  let below = p.y + p.r + 14 + line;
  if (t && timerText && n.status !== "crashed") {
    // On a phone's width the name and the time left are two lines: one would run off the canvas.
    const text = narrow ? `${esc(t.name)}<tspan x="${p.x}" dy="${line}">${esc(fmtDur(t.left))}</tspan>` : `${esc(t.name)} ${esc(fmtDur(t.left))}`;
    out.push(`<text class="timer-label" data-timer-label="${esc(n.id)}" x="${p.x}" y="${below}">${text}</text>`);
    below += narrow ? 2 * line : line;
  }
  if (n.held && n.held.length) {
    const held = n.held.slice(0, 3).map((h) => h.kind === "message" ? `${h.msgKind[0].toLowerCase()}${h.from}` : h.label).join(" ");
    const more = n.held.length > 3 ? ` +${n.held.length - 3}` : "";
    out.push(`<text class="held" x="${p.x}" y="${below}">held ${esc(held)}${more}</text>`);
  }
  return out.join("");
}

// packetMarkup is a message in flight: a pill with its mark (its kind's letter, the id it
// carries, ✓ or ✗ for an answer) where its flight has got to, and under it, apart, its count
// (hops, phase). A heartbeat is a small dot.
function packetMarkup(pk, pa, pb, r, keepRight, scale) {
  const f = Math.max(0, Math.min(1, pk.fraction));
  const [sx, sy, ex, ey] = rims(pa, pb, 0);
  let x = sx + (ex - sx) * f, y = sy + (ey - sy) * f;
  if (keepRight) {
    // Two ways along one link: each keeps to its right, so that two packets crossing are both seen.
    const len = Math.hypot(ex - sx, ey - sy) || 1;
    x -= ((ey - sy) / len) * 11;
    y += ((ex - sx) / len) * 11;
  }
  const answer = pk.mark.endsWith("✓") ? " yes" : pk.mark.endsWith("✗") ? " no" : "";
  const cls = `packet${pk.routine ? " routine" : ""} kind-${kindIndex(pk.kind)}${answer}`;
  const out = [`<g class="${cls}" data-kind="${esc(pk.kind)}" data-mark="${esc(pk.mark)}" data-from="${esc(pk.from)}" data-to="${esc(pk.to)}"><title>${esc(pk.label)} ${esc(pk.from)}→${esc(pk.to)}</title>`];
  if (pk.routine) {
    out.push(`<circle cx="${f1(x)}" cy="${f1(y)}" r="${Math.min(8, r * 0.35)}"/>`);
  } else {
    const h = Math.min(30, Math.max(16, r * 0.66)) * scale, w = Math.max(h, h * 0.3 + [...pk.mark].length * h * 0.58);
    out.push(`<rect x="${f1(x - w / 2)}" y="${f1(y - h / 2)}" width="${f1(w)}" height="${f1(h)}" rx="${f1(h / 2)}"/>`);
    out.push(`<text x="${f1(x)}" y="${f1(y)}" style="font-size:${f1(h * 0.72)}px">${esc(pk.mark)}</text>`);
    if (pk.count) out.push(`<text class="count" x="${f1(x)}" y="${f1(y + h / 2 + 13 * scale)}">${esc(pk.count)}</text>`);
  }
  out.push(`</g>`);
  return out.join("");
}

// groupLinesOf returns the lines from each member of a group to its coordinator — a node up that
// leads and has the member's term, its group's number — except where a fault blocks the pair.
function groupLinesOf(nodes, at, blocked) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = [], done = new Set();
  for (const n of nodes) {
    const co = byId.get(n.leader);
    if (!co || co === n || n.status === "crashed" || n.status === "not-started") continue;
    if ((co.status !== "leader" && co.status !== "paused") || co.term !== n.term) continue; // not there, or leads another group now
    const k = key(n.id, co.id);
    if (blocked.has(k) || done.has(k)) continue;
    done.add(k);
    const [sx, sy, ex, ey] = rims(at.get(n.id), at.get(co.id), 0);
    out.push(`<line class="group-line" data-group-line="${esc(n.id)}-${esc(co.id)}" x1="${f1(sx)}" y1="${f1(sy)}" x2="${f1(ex)}" y2="${f1(ey)}"/>`);
  }
  return out;
}

// rims returns the line from a's rim to b's, stopping gap short of b's.
function rims(pa, pb, gap) {
  const dx = pb.x - pa.x, dy = pb.y - pa.y, len = Math.hypot(dx, dy) || 1;
  return [pa.x + (dx * pa.rim) / len, pa.y + (dy * pa.rim) / len, pb.x - (dx * (pb.rim + gap)) / len, pb.y - (dy * (pb.rim + gap)) / len];
}

const f1 = (v) => v.toFixed(1);

// caption says, in the canvas's corner, which topology is drawn — a ring with the way its
// messages go — and, when it has too many nodes for its shape to read, that the nodes are in rows
// and its links are not drawn.
function caption(pic, n) {
  if (!pic.topology) return [];
  let text = pic.topology === "ring" ? "ring ↻ one-way, clockwise" : pic.topology === "bi-ring" ? "bi-ring ⇄ both ways" : pic.topology;
  let cls = "caption";
  if (pic.layout === "grid") {
    text = `${pic.topology} of ${n} nodes: too many to draw its shape — in rows, links not drawn`;
    cls += " too-big";
  }
  return [`<text class="${cls}" data-caption="${esc(pic.topology)}" x="14" y="30">${esc(text)}</text>`];
}

// key names the line between a and b, whichever way.
function key(a, b) { return a < b ? `${a}-${b}` : `${b}-${a}`; }

let kinds = [];
// setKinds tells the drawing the algorithm's message kinds, for their colours.
export function setKinds(k) { kinds = k || []; }
function kindIndex(kind) { const i = kinds.indexOf(kind); return i < 0 ? 0 : i % 6; }

// legendMarkup returns the legend's entries as HTML, written from the picture's legend: each mark
// drawn as the canvas draws it. An entry that shows only at times (not-started, carries, count)
// comes last, in the markup always and hidden until the picture shows one (legendShows), so
// that the legend keeps its size.
export function legendMarkup(legend) {
  const always = (legend || []).filter((m) => !m.when), at = (legend || []).filter((m) => m.when);
  return [...always, ...at].map((m) => {
    const when = m.when ? ` data-when="${esc(m.when)}"` : "";
    let mark;
    switch (m.class) {
      case "kind": case "yes": case "no": case "carries": {
        const answer = m.class === "yes" ? " yes" : m.class === "no" ? " no" : "";
        mark = `<span class="chip kind-${kindIndex(m.kind)}${answer}">${esc(m.mark)}</span>`;
        break;
      }
      case "timer":
        mark = `<svg class="chip-timer" viewBox="0 0 24 24" aria-hidden="true"><circle class="timer-track" cx="12" cy="12" r="9"/><path class="timer" d="${arc(12, 12, 9, 0.7)}"/></svg>`;
        break;
      default:
        mark = `<span class="mark ${esc(m.class)}">${esc(m.mark)}</span>`;
    }
    return `<li class="entry" data-legend="${esc(m.class)}"${when}>${mark} ${esc(m.means)}</li>`;
  }).join("");
}

// legendShows reports which of the legend's entries that show only at times the picture shows.
export function legendShows(pic) {
  return {
    "not-started": pic.nodes.some((n) => n.status === "not-started"),
    carries: pic.packets.some((p) => p.value),
    count: pic.packets.some((p) => p.count),
  };
}
