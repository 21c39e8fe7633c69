package main

import (
	"context"
	"fmt"
	"io"

	"electsim/internal/interrupt"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/web"
)

// webCommand serves a scenario — the one named, the run the flags describe, or the default
// demo — to a browser (package web), with the TUI's run flags.
func webCommand(args []string, stdout, stderr io.Writer, _ env) error {
	fs := newFlagSet("web")
	var rf runFlags
	rf.register(fs)
	addr := fs.String("addr", web.DefaultAddr, "listen on `HOST:PORT` (port 0: a free one); not a loopback address: any machine that reaches it may open sessions")
	usage := func(w io.Writer) { fmt.Fprintf(w, "%s\nFlags:\n%s", web.Usage, fs.FlagUsages()) }
	if help, err := parseFlags(fs, args, stdout, usage); help || err != nil {
		return err
	}
	sc, err := scenarioFor(scenarios.DefaultDemo, fs)
	if err != nil {
		return err
	}
	cfg, err := rf.apply(fs, sc)
	if err != nil {
		return err
	}
	printWarnings(stderr, cfg.Warnings(), rf.notes)
	return web.Serve(context.Background(), web.Options{Config: cfg, Scenario: sc}, *addr, stdout, stderr, nil)
}

// writeHTML writes the run as a self-contained replay page to path (--html), whole or not at all.
func writeHTML(path string, cfg sim.Config, sc *scenarios.Scenario, temp *interrupt.Cleanup) error {
	f, err := createOut("--html", path, temp)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := web.WriteReplay(f, cfg, sc); err != nil {
		return fmt.Errorf("--html %s: %w", path, err)
	}
	return f.Commit()
}
