// draw.js draws a Picture (docs/picture.md) as SVG: it scales and styles, nothing more.

const W = 1000, H = 720, MARGIN = 90;

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

// fmtDur writes nanoseconds for people: 412ms, 1.25s, 850µs.
export function fmtDur(ns) {
  const ms = ns / 1e6;
  if (ms === 0) return "0ms";
  if (Math.abs(ms) < 1) return `${+(ns / 1e3).toFixed(0)}µs`;
  if (Math.abs(ms) < 1000) return `${+ms.toFixed(ms < 10 ? 2 : 1)}ms`;
  return `${+(ms / 1000).toFixed(3)}s`;
}

function place(n, r) {
  return { x: MARGIN + n.x * (W - 2 * MARGIN), y: MARGIN + n.y * (H - 2 * MARGIN), r };
}

// spacing returns the nodes' radius and how crowded their labels are: by their number, and —
// where they are few enough to measure — by how close the two closest sit, so that a line's or a
// graph's nodes never touch.
function spacing(nodes) {
  const count = nodes.length;
  let r = count > 32 ? 22 : count > 16 ? 30 : count > 8 ? 38 : 48;
  let density = count > 32 ? "crowd" : count > 12 ? "many" : "";
  if (count > 1 && count <= 48) {
    let near = Infinity;
    for (let i = 0; i < count; i++) {
      const a = place(nodes[i], 0);
      for (let j = i + 1; j < count; j++) {
        const b = place(nodes[j], 0);
        near = Math.min(near, Math.hypot(a.x - b.x, a.y - b.y));
      }
    }
    r = Math.max(14, Math.min(r, Math.floor(near * 0.33)));
    if (near < 70) density = "crowd";
    else if (near < 115 && !density) density = "many";
  }
  return { r, density };
}

// drawPicture returns the SVG markup of pic; selected is the selected node's id, or 0; groupLines
// is set for an algorithm of groups (algo.Info.Groups): each member's line to its coordinator is
// drawn bold, the groups shaded on the canvas as the terminal shades them.
export function drawPicture(pic, selected, groupLines) {
  const nodes = pic.nodes || [];
  const at = new Map();
  const { r, density } = spacing(nodes);
  nodes.forEach((n) => at.set(n.id, place(n, r)));
  const out = [];
  const edges = pic.edges || [];
  const shaped = edges.length > 0; // a topology laid out as its shape: its links, not every pair
  if (pic.directed && shaped) {
    out.push(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="16" markerHeight="16" orient="auto"><path class="arrow" d="M0,1 L10,5 L0,9 z"/></marker></defs>`);
  }
  out.push(...caption(pic, nodes.length));
  if (shaped) {
    // Every link of the topology, faintly, from rim to rim; a one-way link's arrow at its receiver.
    const mark = pic.directed ? ` marker-end="url(#arrow)"` : "";
    for (const [a, b] of edges) {
      const pa = at.get(a), pb = at.get(b);
      if (!pa || !pb) continue;
      const [sx, sy, ex, ey] = rims(pa, pb, pic.directed ? 4 : 0);
      out.push(`<line class="link edge" data-edge="${a}-${b}" x1="${f1(sx)}" y1="${f1(sy)}" x2="${f1(ex)}" y2="${f1(ey)}"${mark}/>`);
    }
  } else {
    // The complete graph (or a topology in rows, too big to draw its links): every line up to 8
    // nodes, faintly; above, those a packet, a block or a drop uses.
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
  }
  // A partition blocks every pair across it; on a topology, only its links between the groups are drawn.
  const linked = new Set(edges.map(([a, b]) => key(a, b)));
  const blocked = pic.blocked.filter((b) => (!shaped || b.why === "cut" || linked.has(key(b.from, b.to))) && at.has(b.from) && at.has(b.to));
  if (groupLines) out.push(...groupLinesOf(nodes, at, new Set(blocked.map((b) => key(b.from, b.to)))));
  const blockedDone = new Set();
  for (const b of blocked) {
    const k = key(b.from, b.to);
    const pa = at.get(b.from), pb = at.get(b.to);
    out.push(`<line class="blocked ${esc(b.why)}" data-blocked="${b.from}-${b.to}" x1="${pa.x}" y1="${pa.y}" x2="${pb.x}" y2="${pb.y}"/>`);
    if (!blockedDone.has(k)) {
      blockedDone.add(k);
      const mx = (pa.x + pb.x) / 2, my = (pa.y + pb.y) / 2;
      out.push(`<text class="block-mark" x="${mx}" y="${my}">╳</text>`);
    }
  }
  // Nodes, then packets and drops over the lines, then labels last.
  for (const n of nodes) {
    const p = at.get(n.id);
    const sel = n.id === selected ? " selected" : "";
    const group = n.group ? ` group-${((n.group - 1) % 4) + 1}` : "";
    out.push(`<g class="node ${esc(n.status)}${sel}${group}" data-node="${n.id}" data-status="${esc(n.status)}" tabindex="0" role="button" aria-label="node ${n.id}, ${esc(n.status)}">`);
    out.push(`<circle cx="${p.x}" cy="${p.y}" r="${p.r}"/>`);
    out.push(`<text class="id" x="${p.x}" y="${p.y}">${n.id}</text>`);
    const t = (n.timers || [])[0];
    if (t && nodes.length <= 16 && n.status !== "crashed") {
      const w = p.r * 2, frac = t.total > 0 ? Math.max(0, Math.min(1, t.left / t.total)) : 0;
      out.push(`<rect class="timer-bg" x="${p.x - w / 2}" y="${p.y + p.r + 6}" width="${w}" height="8"/>`);
      out.push(`<rect class="timer" data-timer="${esc(t.name)}" x="${p.x - w / 2}" y="${p.y + p.r + 6}" width="${(w * frac).toFixed(2)}" height="8"/>`);
    }
    out.push(`</g>`);
  }
  for (const d of pic.drops) {
    const pa = at.get(d.from), pb = at.get(d.to);
    if (!pa || !pb) continue;
    const f = d.fraction ? 0.85 : 0.15;
    out.push(`<text class="drop" data-kind="${esc(d.kind)}" data-drop="${esc(d.reason)}" x="${pa.x + (pb.x - pa.x) * f}" y="${pa.y + (pb.y - pa.y) * f}"><title>${esc(d.label)} lost: ${esc(d.reason)}</title>✗</text>`);
  }
  for (const pk of pic.packets) {
    const pa = at.get(pk.from), pb = at.get(pk.to);
    if (!pa || !pb) continue;
    const f = Math.max(0, Math.min(1, pk.fraction));
    // along the line, from the sender's rim to the receiver's
    const [sx, sy, ex, ey] = rims(pa, pb, 0);
    let x = sx + (ex - sx) * f, y = sy + (ey - sy) * f;
    if (shaped && !pic.directed) {
      // Two ways along one link: each keeps to its right, so that two packets crossing are both seen.
      const len = Math.hypot(ex - sx, ey - sy) || 1;
      x -= ((ey - sy) / len) * 9;
      y += ((ex - sx) / len) * 9;
    }
    const cls = pk.routine ? "packet routine" : "packet";
    out.push(`<g class="${cls} kind-${kindIndex(pic, pk.kind)}" data-kind="${esc(pk.kind)}" data-from="${pk.from}" data-to="${pk.to}"><title>${esc(pk.label)} ${pk.from}→${pk.to}</title>`);
    out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${pk.routine ? Math.min(8, r * 0.35) : Math.min(15, r * 0.5)}"/>`);
    if (!pk.routine) out.push(`<text x="${x.toFixed(1)}" y="${y.toFixed(1)}">${esc(pk.kind[0])}</text>`);
    out.push(`</g>`);
  }
  for (const n of nodes) {
    const p = at.get(n.id);
    let label = n.status;
    if (n.role) label = n.role.split(" ")[0];
    if (n.leader) label += ` →${n.leader}`;
    if (n.term) label += ` t${n.term}`;
    out.push(`<text class="label ${esc(n.status)}" x="${p.x}" y="${p.y - p.r - 10}">${esc(label)}</text>`);
    if (n.held && n.held.length) {
      const held = n.held.slice(0, 3).map((h) => h.kind === "message" ? `${h.msgKind[0].toLowerCase()}${h.from}` : h.label).join(" ");
      const more = n.held.length > 3 ? ` +${n.held.length - 3}` : "";
      out.push(`<text class="held" x="${p.x}" y="${p.y + p.r + 32}">held ${esc(held)}${more}</text>`);
    }
  }
  // Smaller labels where the nodes are many or close, so that a row of them does not run together.
  return `<g class="scene ${density}">${out.join("")}</g>`;
}

// groupLinesOf returns the lines from each member of a group to its coordinator — a node up that
// leads and has the member's term, its group's number — except where a fault blocks the pair.
function groupLinesOf(nodes, at, blocked) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = [], done = new Set();
  for (const n of nodes) {
    const co = byId.get(n.leader);
    if (!co || co === n || n.status === "crashed" || n.status === "down") continue;
    if ((co.status !== "leader" && co.status !== "paused") || co.term !== n.term) continue; // not there, or leads another group now
    const k = key(n.id, co.id);
    if (blocked.has(k) || done.has(k)) continue;
    done.add(k);
    const [sx, sy, ex, ey] = rims(at.get(n.id), at.get(co.id), 0);
    out.push(`<line class="group-line" data-group-line="${n.id}-${co.id}" x1="${f1(sx)}" y1="${f1(sy)}" x2="${f1(ex)}" y2="${f1(ey)}"/>`);
  }
  return out;
}

// rims returns the line from a's rim to b's, stopping gap short of b's.
function rims(pa, pb, gap) {
  const dx = pb.x - pa.x, dy = pb.y - pa.y, len = Math.hypot(dx, dy) || 1;
  return [pa.x + (dx * pa.r) / len, pa.y + (dy * pa.r) / len, pb.x - (dx * (pb.r + gap)) / len, pb.y - (dy * (pb.r + gap)) / len];
}

const f1 = (v) => v.toFixed(1);

// caption says, in the canvas's corner, which topology is drawn — and, when it has too many nodes
// for its shape to read, that the nodes are in rows and its links are not drawn.
function caption(pic, n) {
  if (!pic.topology) return [];
  let text = pic.topology === "ring" ? "ring (one-way)" : pic.topology;
  let cls = "caption";
  if (pic.layout === "grid") {
    text = `${pic.topology} of ${n} nodes: too many to draw its shape — in rows, links not drawn`;
    cls += " too-big";
  }
  return [`<text class="${cls}" data-caption="${esc(pic.topology)}" x="14" y="28">${esc(text)}</text>`];
}

function key(a, b) { return a < b ? `${a}-${b}` : `${b}-${a}`; }

let kinds = [];
// setKinds tells the drawing the algorithm's message kinds, for their colours.
export function setKinds(k) { kinds = k || []; }
function kindIndex(_pic, kind) { const i = kinds.indexOf(kind); return i < 0 ? 0 : i % 6; }
