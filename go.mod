module electsim

go 1.26.0

require (
	github.com/spf13/pflag v1.0.10 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.47.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
