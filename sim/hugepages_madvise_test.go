//go:build linux && (amd64 || arm64)

package sim

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// A big table is advised for huge pages before it is written: Linux marks the memory's
// mapping "hg" (VM_HUGEPAGE) in /proc/self/smaps, whatever the system then makes of the advice.
func TestBigTablesAskForHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("this kernel has no transparent huge pages to ask for")
	}
	if os.Getpagesize() != 4<<10 {
		t.Skip("huge pages are asked for only where the base page is 4 KB")
	}
	big := makeBig[event](hugeMin/int(unsafe.Sizeof(event{})) + 1)
	from, to := hugeSpan(uintptr(unsafe.Pointer(&big[0])), uintptr(len(big))*unsafe.Sizeof(event{}))
	if to-from < hugePage {
		t.Fatalf("a %d-byte table spans no whole huge page", len(big)*int(unsafe.Sizeof(event{})))
	}
	if flags := vmFlags(t, from); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the big table's mapping has flags %q: no hg, so no huge pages were asked for", flags)
	}
	big[len(big)-1].node = 1 // written only now, after the advice
}

// vmFlags returns the VmFlags line of the mapping in /proc/self/smaps that holds addr.
func vmFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps to read: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 { // a mapping's first line
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping in /proc/self/smaps holds %#x", addr)
	return ""
}
