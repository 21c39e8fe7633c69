package memlimit

import (
	"bufio"
	"os"
	"path"
	"strconv"
	"strings"

	"electsim/sim"
)

// Budget returns the memory a run may hold here (sim.Config.MaxMemory): half of what this
// process may still have — the machine's memory, or less under a limit: a container's cgroup,
// ulimit -d, or ulimit -v less the address space the Go runtime has reserved already (more
// than a gigabyte, most of it never used). The other half is for what the engine does not
// reckon: the garbage collector's slack, the runtime, the address space it reserves as the
// heap grows. Where none of them can be read, sim.DefaultMaxMemory.
func Budget() int64 {
	space, data := rlimitMemory()
	if space > 0 {
		space = max(space-virtualSize(), 1) // under the limit already: the floor below
	}
	avail := int64(0)
	for _, b := range []int64{physicalMemory(), cgroupMemory(), space, data} {
		if b > 0 && (avail == 0 || b < avail) {
			avail = b
		}
	}
	if avail == 0 {
		return sim.DefaultMaxMemory
	}
	return max(avail/2, minBudget)
}

// minBudget is the least memory a run is allowed, whatever the limits say: a few thousand
// nodes' worth. A process held tighter than that fails as it starts, before any run.
const minBudget = 64 << 20

// virtualSize returns the address space this process has mapped (Linux: VmSize), or 0.
func virtualSize() int64 { return procStatus("/proc/self/status", "VmSize:") }

// physicalMemory returns the machine's memory (Linux: MemTotal), or 0.
func physicalMemory() int64 { return procStatus("/proc/meminfo", "MemTotal:") }

// procStatus returns the size a line of a /proc file gives in kB, in bytes, or 0.
func procStatus(file, key string) int64 {
	f, err := os.Open(file)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cgroupMemory returns the memory limit of this process's cgroup or of one above it (Linux,
// cgroup v2 memory.max or v1 memory.limit_in_bytes), or 0 when there is none.
func cgroupMemory() int64 {
	return cgroupLimit("/proc/self/cgroup", "/sys/fs/cgroup", "/sys/fs/cgroup/memory")
}

// cgroupLimit is cgroupMemory, reading the process's cgroups from self and the cgroup file
// systems from v2 and v1.
func cgroupLimit(self, v2, v1 string) int64 {
	data, err := os.ReadFile(self)
	if err != nil {
		return 0
	}
	least := int64(0)
	consider := func(file string) {
		b, err := os.ReadFile(file)
		if err != nil {
			return
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && v > 0 && v < 1<<60 && (least == 0 || v < least) { // "max", or v1's huge value: none
			least = v
		}
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var root, file string
		switch {
		case parts[0] == "0" && parts[1] == "":
			root, file = v2, "memory.max"
		case strings.Contains(","+parts[1]+",", ",memory,"):
			root, file = v1, "memory.limit_in_bytes"
		default:
			continue
		}
		for dir := path.Clean("/" + parts[2]); ; dir = path.Dir(dir) {
			consider(path.Join(root, dir, file))
			if dir == "/" {
				break
			}
		}
	}
	return least
}
