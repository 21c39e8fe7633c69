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

function place(n, count) {
  const r = count > 32 ? 22 : count > 16 ? 30 : count > 8 ? 38 : 48;
  return { x: MARGIN + n.x * (W - 2 * MARGIN), y: MARGIN + n.y * (H - 2 * MARGIN), r };
}

// drawPicture returns the SVG markup of pic; selected is the selected node's id, or 0.
export function drawPicture(pic, selected) {
  const nodes = pic.nodes || [];
  const at = new Map();
  nodes.forEach((n) => at.set(n.id, place(n, nodes.length)));
  const out = [];
  // Lines: every one up to 8 nodes, faintly; above, those a packet, a block or a drop uses.
  const used = new Set();
  for (const p of pic.packets) used.add(key(p.from, p.to));
  for (const b of pic.blocked) used.add(key(b.from, b.to));
  for (const d of pic.drops) used.add(key(d.from, d.to));
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i], b = nodes[j];
      if (nodes.length > 8 && !used.has(key(a.id, b.id))) continue;
      const pa = at.get(a.id), pb = at.get(b.id);
      out.push(`<line class="link" x1="${pa.x}" y1="${pa.y}" x2="${pb.x}" y2="${pb.y}"/>`);
    }
  }
  const blockedDone = new Set();
  for (const b of pic.blocked) {
    const k = key(b.from, b.to);
    const pa = at.get(b.from), pb = at.get(b.to);
    if (!pa || !pb) continue;
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
    const dx = pb.x - pa.x, dy = pb.y - pa.y, len = Math.hypot(dx, dy) || 1;
    const sx = pa.x + (dx * pa.r) / len, sy = pa.y + (dy * pa.r) / len;
    const ex = pb.x - (dx * pb.r) / len, ey = pb.y - (dy * pb.r) / len;
    const x = sx + (ex - sx) * f, y = sy + (ey - sy) * f;
    const cls = pk.routine ? "packet routine" : "packet";
    out.push(`<g class="${cls} kind-${kindIndex(pic, pk.kind)}" data-kind="${esc(pk.kind)}" data-from="${pk.from}" data-to="${pk.to}"><title>${esc(pk.label)} ${pk.from}→${pk.to}</title>`);
    out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${pk.routine ? 8 : 15}"/>`);
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
  return out.join("");
}

function key(a, b) { return a < b ? `${a}-${b}` : `${b}-${a}`; }

let kinds = [];
// setKinds tells the drawing the algorithm's message kinds, for their colours.
export function setKinds(k) { kinds = k || []; }
function kindIndex(_pic, kind) { const i = kinds.indexOf(kind); return i < 0 ? 0 : i % 6; }
