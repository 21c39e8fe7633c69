// Package memlimit says how much memory a run may hold in this process: half of what the
// process may have — the machine's memory, or less under a container's cgroup or a ulimit —
// so that a run too big for the machine stops with a reason, not with the runtime's
// out-of-memory crash (docs/model.md, "Runs that cannot finish").
package memlimit
