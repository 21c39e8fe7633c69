package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"electsim/internal/interrupt"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/web"
)

// webCommand serves a scenario — the one named, the run the flags describe, or the default
// demo — to a browser (package web).
func webCommand(args []string, stdout, stderr io.Writer, _ env) error {
	fs := newFlagSet("web")
	var rf runFlags
	rf.register(fs)
	addr := fs.String("addr", web.DefaultAddr, "listen on `HOST:PORT` (port 0: a free one); not a loopback address: any machine that reaches it may open sessions")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: electsim web [SCENARIO] [flags]\n\nServes a scenario — a .scn file or a bundled one — or the run the flags describe, to your\nbrowser: the nodes and messages drawn, play, step, step back, faults at a click, narration,\nthe event log, save. Prints the URL to open; ctrl+c stops it. docs/web.md tells more.")
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
	}
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	sc, cfg, err := webRun(fs, &rf, stderr)
	if err != nil {
		return err
	}
	return web.Serve(context.Background(), web.Options{Config: cfg, Scenario: sc}, *addr, stdout, stderr, nil)
}

// webRun is the run the flags describe, as the TUI would play it, with its warnings printed.
func webRun(fs *pflag.FlagSet, rf *runFlags, stderr io.Writer) (*scenarios.Scenario, sim.Config, error) {
	sc, err := scenarioFor(scenarios.DefaultDemo, fs)
	if err != nil {
		return nil, sim.Config{}, err
	}
	cfg, err := rf.apply(fs, sc)
	if err != nil {
		return nil, sim.Config{}, err
	}
	printWarnings(stderr, cfg.Warnings(), rf.notes)
	if sc.Name == "" {
		sc = nil // a run the flags describe: no title, narration nor expectations of its own
	}
	return sc, cfg, nil
}

// writeHTML writes the run as a self-contained replay page to path (--html), whole or not at all.
func writeHTML(path string, cfg sim.Config, sc *scenarios.Scenario, temp *interrupt.Cleanup) error {
	f, err := createOut("--html", path, temp)
	if err != nil {
		return err
	}
	defer f.Abort()
	if sc != nil && sc.Name == "" {
		sc = nil
	}
	if err := web.WriteReplay(f, cfg, sc); err != nil {
		return fmt.Errorf("--html %s: %w", path, err)
	}
	return f.Commit()
}
