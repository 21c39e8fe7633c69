package report

import (
	"encoding/json"
	"io"
	"runtime"
	"time"

	"electsim/algo"
	"electsim/sim/bench"
)

// BenchJSON is the object `electsim bench --json` prints: the machine, and each election
// measured — its messages by kind beside the theory, its leader, and what it cost.
type BenchJSON struct {
	Go      string            `json:"go"`
	OS      string            `json:"os"`
	Arch    string            `json:"arch"`
	CPUs    int               `json:"cpus"`
	Results []benchResultJSON `json:"results"`
}

type benchResultJSON struct {
	Algorithm  string                     `json:"algorithm"`
	Nodes      int                        `json:"nodes"`
	Engine     string                     `json:"engine"`
	Seed       uint64                     `json:"seed"`
	GOMAXPROCS int                        `json:"gomaxprocs"`
	Messages   messagesSentDeliveredJSON  `json:"messages"`
	Theory     map[string]benchTheoryJSON `json:"theory"`
	Leader     *algo.ID                   `json:"leader"`
	LeaderAtMS *float64                   `json:"leader_at_ms"`
	Steps      int                        `json:"steps"`
	Stopped    string                     `json:"stopped,omitempty"`
	Worst      bool                       `json:"worst_ids,omitempty"`
	Phases     uint32                     `json:"phases,omitempty"`
	Runs       int                        `json:"runs,omitempty"`
	MeanSent   float64                    `json:"mean_messages,omitempty"`
	MeanPhases float64                    `json:"mean_phases,omitempty"`
	MinSent    int64                      `json:"min_messages,omitempty"`
	MaxSent    int64                      `json:"max_messages,omitempty"`
	OverBound  []uint64                   `json:"seeds_over_bound,omitempty"`
	WallMS     float64                    `json:"wall_ms"`
	PerSecond  float64                    `json:"delivered_per_second"`
	PeakHeap   uint64                     `json:"peak_heap_bytes"`
	PeakRSS    uint64                     `json:"peak_rss_bytes"`
}

type messagesSentDeliveredJSON struct {
	Sent      counts `json:"sent"`
	Delivered counts `json:"delivered"`
}

type benchTheoryJSON struct {
	Exact   int64    `json:"exact"`
	Mean    *float64 `json:"mean,omitempty"`
	Bound   int64    `json:"bound,omitempty"`
	Formula string   `json:"formula"`
}

// WriteBenchJSON writes the results of a bench as one JSON object (BenchJSON).
func WriteBenchJSON(w io.Writer, results []bench.Result) error {
	out := BenchJSON{Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(),
		Results: []benchResultJSON{}}
	for _, r := range results {
		j := benchResultJSON{Algorithm: r.Algorithm, Nodes: r.Nodes, Engine: r.Engine.String(), Seed: r.Seed, GOMAXPROCS: r.Procs,
			Messages: messagesSentDeliveredJSON{Sent: counts{r.Kinds, r.Sent}, Delivered: counts{r.Kinds, r.Delivered}},
			Theory:   map[string]benchTheoryJSON{}, Steps: r.Steps, Stopped: r.Stopped,
			WallMS: float64(r.Wall) / float64(time.Millisecond), PerSecond: r.DeliveredPerSecond(),
			PeakHeap: r.PeakHeap, PeakRSS: r.PeakRSS,
			Worst: r.Worst, Phases: r.Phases, Runs: r.Runs, MeanSent: r.MeanSent, MeanPhases: r.MeanPhases,
			MinSent: r.MinSent, MaxSent: r.MaxSent, OverBound: r.OverBound}
		if r.Leader != 0 {
			leader, at := r.Leader, float64(r.Elected)/float64(time.Millisecond)
			j.Leader, j.LeaderAtMS = &leader, &at
		}
		for _, th := range r.Theory {
			tj := benchTheoryJSON{Exact: th.Exact, Formula: th.Note, Bound: th.Bound}
			if th.Mean > 0 {
				mean := th.Mean
				tj.Mean = &mean
			}
			j.Theory[th.Kind] = tj
		}
		out.Results = append(out.Results, j)
	}
	return json.NewEncoder(w).Encode(out)
}
