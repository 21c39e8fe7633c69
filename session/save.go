package session

import (
	"fmt"
	"slices"
	"strings"

	"electsim/internal/safetext"
	"electsim/scenarios"
)

// SaveName is the file name a saved session is offered under: the scenario's name with
// "-session.scn", or "session.scn" for a run the flags describe.
func (s *Session) SaveName() string {
	if s.sc != nil && s.sc.Name != "" {
		return s.sc.Name + "-session.scn"
	}
	return "session.scn"
}

// Scenario returns the session as a scenario called name: the run as configured, the
// scenario's actions and the user's, merged in time order (the scenario's first at the same
// time), and the scenario's expectations; its title says it is a saved session.
func (s *Session) Scenario(name string) *scenarios.Scenario {
	sc := scenarios.FromConfig(name, s.base)
	sc.Title = s.Title() + " (a saved session)"
	all := sc.Actions
	for _, a := range s.user {
		all = append(all, scenarios.Step{Action: a})
	}
	slices.SortStableFunc(all, func(a, b scenarios.Step) int { return int(a.At - b.At) })
	sc.Actions = all
	if s.sc != nil {
		sc.Expects = slices.Clone(s.sc.Expects)
	}
	return sc
}

// File returns the text of the session saved as the scenario called name, which electsim run
// replays to the same trace: a comment saying where it comes from — tool, the command it was
// played in, "electsim tui", and the scenario — and, when the user acted, which actions, and
// that the scenario's narration and expectations were written for the story without them; then
// the scenario in canonical form.
func (s *Session) File(name, tool string) string {
	from := "a run the flags describe"
	if s.sc != nil && s.sc.Name != "" {
		from = safetext.Escape(s.sc.Name) // one comment line, whatever the scenario is called
	}
	var b strings.Builder
	if len(s.user) == 0 {
		fmt.Fprintf(&b, "# A session of %s: %s, played as written.\n", tool, from)
	} else {
		fmt.Fprintf(&b, "# A session of %s: %s, with these actions taken in it:\n", tool, from)
		for _, a := range s.user {
			fmt.Fprintf(&b, "#   at %s %s\n", scenarios.FormatWhen(a), a)
		}
		b.WriteString("# The narration (say) and the expectations are the scenario's own, written for the story\n" +
			"# without those actions: they may no longer match. electsim run on this file replays the\n" +
			"# session and says which expectations still hold.\n")
	}
	b.WriteString("\n")
	b.WriteString(scenarios.Format(s.Scenario(name)))
	return b.String()
}
