package algo

import "fmt"

// Fencing, shared by the lease's resource and ZooKeeper's data store: a store that remembers the
// highest token it has accepted, and with fencing refuses a write that carries a lower one
// (docs/algorithms.md, "Lease with fencing tokens").

// noteStoreUp notes, when a store boots, the highest token it has accepted (on its stable
// storage) and whether it fences.
func noteStoreUp(env Env, fencing bool) {
	if !env.Tracing() {
		return
	}
	accepted, _ := env.Load(diskAccepted)
	how := "off: it takes any write"
	if fencing {
		how = "on: it rejects a token lower than one it accepted"
	}
	env.Note("resource up: highest token accepted so far %d; fencing %s", accepted, how)
}

// serveFencedWrite is the store's answer to WRITE m: "remember the highest token accepted; with
// fencing, reject a write that carries a lower one". The token is m.Term.
func serveFencedWrite(env Env, m Message, fencing bool) {
	accepted, _ := env.Load(diskAccepted)
	switch {
	case m.Term < accepted && fencing:
		env.Send(m.From, Message{Kind: KindReject, Term: m.Term})
		if env.Tracing() {
			env.Note("WRITE from %d with token %d < %d already accepted: REJECT — the fence holds", m.From, m.Term, accepted)
		}
	case m.Term < accepted:
		env.Send(m.From, Message{Kind: KindAccept, Term: m.Term})
		if env.Tracing() {
			env.Note("WRITE from %d with token %d < %d already accepted, and no fencing: ACCEPT — a stale write", m.From, m.Term, accepted)
		}
	default:
		env.Store(diskAccepted, m.Term)
		env.Send(m.From, Message{Kind: KindAccept, Term: m.Term})
	}
}

// watchStaleWrites judges no-stale-write on the resource's ACCEPTs: each carries the token of
// the write it took.
func watchStaleWrites() Watcher { return &staleWrites{} }

// staleWrites remembers the highest token the resource has accepted so far. store names the
// resource in violations: "the resource" when empty.
type staleWrites struct {
	highest uint64
	store   string
}

func (w *staleWrites) Sent(m Message) (bool, []ID, string) {
	if m.Kind != KindAccept {
		return false, nil, ""
	}
	if m.Term < w.highest {
		store := w.store
		if store == "" {
			store = "the resource"
		}
		return true, []ID{m.To, m.From}, fmt.Sprintf("%s accepted token %d from %d after token %d", store, m.Term, m.To, w.highest)
	}
	w.highest = m.Term
	return false, nil, ""
}

func (w *staleWrites) Clone() Watcher              { c := *w; return &c }
func (w *staleWrites) AppendState(b []byte) []byte { return appendUint(b, w.highest) }
