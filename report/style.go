package report

import "electsim/sim"

// Styler colours the parts of a step described for people. Plain leaves them as they are; the
// command line and the TUI colour them, each their own way.
type Styler interface {
	Dim(s string) string
	Red(s string) string
	Fault(s string) string                         // a fault action
	Say(s string) string                           // narration
	Kind(s string, index int, routine bool) string // a message kind, by its place in the algorithm's list
	Status(st sim.Status, s string) string         // a node status
}

// Palette colours a report: the parts of a step (Styler), and headings, bold text and what
// holds. The command line's palette writes ANSI escapes; Plain writes none.
type Palette interface {
	Styler
	Bold(s string) string
	Green(s string) string   // what holds: a property, an expectation, a count that matches
	Heading(s string) string // the title of a part of a report
}

// Plain is the Styler and the Palette that add nothing.
type Plain struct{}

func (Plain) Dim(s string) string                  { return s }
func (Plain) Red(s string) string                  { return s }
func (Plain) Fault(s string) string                { return s }
func (Plain) Say(s string) string                  { return s }
func (Plain) Kind(s string, _ int, _ bool) string  { return s }
func (Plain) Status(_ sim.Status, s string) string { return s }
func (Plain) Bold(s string) string                 { return s }
func (Plain) Green(s string) string                { return s }
func (Plain) Heading(s string) string              { return s }
