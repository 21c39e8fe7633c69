//go:build unix

package scenarios

import (
	"os"
	"syscall"
)

// openNoWait opens name to read it without waiting: a named pipe that no one writes to, put
// where a file was after it was looked at, opens at once (and is then refused) instead of
// holding the program forever.
func openNoWait(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
