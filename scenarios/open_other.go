//go:build !unix

package scenarios

import "os"

// openNoWait opens name to read it. (Where named pipes block differently, or there are none,
// a plain open.)
func openNoWait(name string) (*os.File, error) { return os.Open(name) }
