package main

import (
	"fmt"
	"io"
	"strings"

	"electsim/algo"
	"electsim/internal/safetext"
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
	names := scenarios.Bundled()
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		sc, err := scenarios.LoadBundled(n)
		if err != nil {
			return fmt.Errorf("the bundled scenario %s does not parse: %w", n, err)
		}
		fmt.Fprintf(stdout, "%-*s  %-9s  %s\n", width, n, sc.Algorithm, safetext.EscapeLines(sc.Title))
	}
	return nil
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
	for i, a := range algo.Algorithms() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s — %s\n", a.Name, a.Summary)
		fmt.Fprintf(stdout, "  messages    %s\n", strings.Join(a.Kinds, ", "))
		for j, p := range a.Params {
			label := ""
			if j == 0 {
				label = "parameters"
			}
			fmt.Fprintf(stdout, "  %-10s  %-20s %-24s %s\n", label, p.Key, p.Default, p.Help)
		}
	}
	return nil
}
