// replaysource.js plays a run embedded in the page (electsim run --html): the same answers
// the server gives the live page, worked out from the run's items (web/replay.go says how
// they are encoded).

// readReplay decodes the run in element el: base64 of gzip of JSON.
export async function readReplay(el) {
  const bin = atob(el.textContent.trim());
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

// replaySource returns a source over the run data: the methods the page calls on the server.
export function replaySource(data) {
  const last = data.times.length - 1;
  const items = data.items; // in the order they start: items[i].a grows
  let step = 0, instant = 0;
  const atBreak = () => step > 0 && !!data.log[step - 1].break;
  const narration = () => {
    let i = step - 1;
    while (i >= 0 && !data.log[i].say) i--;
    if (i < 0) return [];
    const at = data.log[i].at, lines = [];
    while (i >= 0 && (!data.log[i].say || data.log[i].at === at)) {
      if (data.log[i].say) lines.unshift(data.log[i].say);
      i--;
    }
    return lines;
  };
  const picture = () => {
    const t = instant;
    const nodes = [], byId = new Map(), packets = [], drops = [], blocked = [];
    let groups = 0, splitBrain;
    let hi = items.length; // the first item that starts after step
    for (let lo = 0; lo < hi;) {
      const mid = (lo + hi) >> 1;
      if (items[mid].a <= step) lo = mid + 1; else hi = mid;
    }
    const timers = [], held = [];
    for (let i = 0; i < hi; i++) {
      const it = items[i];
      if (it.b < step) continue;
      const v = it.v;
      switch (it.k) {
        case "n": { const n = { ...v, timers: [], held: [] }; nodes.push(n); byId.set(n.id, n); break; }
        case "t": timers.push(v); break;
        case "h": held.push(v); break;
        case "p": {
          const span = v.arrives - v.sent;
          const f = span > 0 ? (t - v.sent) / span : 1;
          packets.push({ ...v, fraction: Math.max(0, Math.min(1, f)) });
          break;
        }
        case "d": drops.push(v); break;
        case "b": blocked.push(v); break;
        case "g": groups = v.groups; break;
        case "s": splitBrain = v; break;
      }
    }
    nodes.sort((a, b) => a.order - b.order);
    for (const n of nodes) delete n.order;
    timers.sort((a, b) => a.fires - b.fires);
    for (const tm of timers) {
      const n = byId.get(tm.node);
      if (n) n.timers.push({ name: tm.name, left: Math.max(0, tm.fires - t), total: tm.total, fires: tm.fires });
    }
    held.sort((a, b) => a.i - b.i);
    for (const h of held) { const n = byId.get(h.node); if (n) n.held.push(h.held); }
    packets.sort((a, b) => a.arrives - b.arrives);
    const shape = { topology: data.topology, edges: data.edges, directed: data.directed };
    return { at: t, layout: data.layout, nodes, packets, drops, blocked, groups, ...shape, splitBrain, legend: data.legend };
  };
  // The groups as listed at the step shown: the last change at or before it.
  const groupsAt = () => {
    let lines = null;
    for (const g of data.groups || []) { if (g.step <= step) lines = g.lines; }
    return lines && lines.length ? lines : null;
  };
  const view = (from, gen, message) => {
    if (gen !== 0 || from < 0 || from > step) from = 0;
    return {
      id: "", gen: 0, title: data.title, name: data.name, algorithm: data.algorithm, members: data.members,
      step, time: data.times[step], runFor: data.runFor, done: step === last, atBreak: atBreak(),
      picture: picture(), from, log: data.log.slice(from, step), narration: narration(),
      verdicts: step === last ? data.verdicts : null, groups: groupsAt(), groupLines: !!data.groupLines, kinds: data.kinds, message,
    };
  };
  const go = (to) => { step = Math.max(0, Math.min(last, to)); instant = data.times[step]; };
  return {
    live: false,
    last,
    async state(r) { return view(r.from, r.gen); },
    async next(r) {
      for (let k = 0; k < (r.n || 1) && step < last; k++) { go(step + 1); if (atBreak()) break; }
      return view(r.from, r.gen);
    },
    async back(r) { go(step - (r.n || 1)); return view(r.from, r.gen); },
    async goto(n, r) { go(n); return view(r.from, r.gen); },
    async play(r) {
      while (step < last && data.times[step + 1] <= r.to) {
        go(step + 1);
        if (atBreak()) return view(r.from, r.gen);
      }
      instant = Math.min(Math.max(r.to, data.times[step]), data.runFor);
      return view(r.from, r.gen);
    },
    async restart(r) { go(0); return view(r.from, r.gen); },
    async act() { throw new Error("this is a replay of a run: acting on it needs electsim web"); },
    async save() { return { name: data.saveName, text: data.saveText }; },
  };
}
