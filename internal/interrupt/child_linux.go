package interrupt

import "syscall"

// childDies returns what makes a child process die with electsim: Linux sends it SIGKILL when
// electsim dies, however it dies.
func childDies() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
