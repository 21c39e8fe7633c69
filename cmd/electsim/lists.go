package main

import (
	"fmt"
	"io"

	"electsim/report"
	"electsim/scenarios"
)

// scenariosCommand lists the bundled scenarios: name, algorithm, title.
func scenariosCommand(args []string, stdout, _ io.Writer, getenv env) error {
	fs := newFlagSet("scenarios")
	var showSource string
	var noColor bool
	fs.StringVar(&showSource, "show", "", "print the text of the bundled scenario NAME, to copy and change")
	boolVar(fs, &noColor, "no-color", "", "no colour (the list has none; accepted like every command's)")
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: electsim scenarios [--show NAME]\n\nLists the bundled scenarios. Play one with electsim run NAME.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (see -h)", fs.Arg(0))
	}
	if fs.Changed("show") {
		src, err := scenarios.BundledSource(showSource)
		if err != nil {
			return usagef("--show %s: no bundled scenario called %q (electsim scenarios lists them)", showSource, showSource)
		}
		_, err = stdout.Write(src)
		return err
	}
	return report.WriteScenarios(stdout)
}

// algorithmsCommand lists the algorithms with their message kinds and parameters.
func algorithmsCommand(args []string, stdout, _ io.Writer, getenv env) error {
	fs := newFlagSet("algorithms")
	var noColor bool
	boolVar(fs, &noColor, "no-color", "", "no colour (the list has none; accepted like every command's)")
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: electsim algorithms\n\nLists the algorithms, the messages they send and the parameters --set and `set` take.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (see -h)", fs.Arg(0))
	}
	report.WriteAlgorithms(stdout)
	return nil
}
