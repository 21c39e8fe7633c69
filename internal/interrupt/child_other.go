//go:build !linux

package interrupt

import "syscall"

// childDies returns nothing more where there is no parent-death signal: a child is killed when
// electsim is interrupted, but outlives it if electsim is killed outright.
func childDies() *syscall.SysProcAttr { return nil }
