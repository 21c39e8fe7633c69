package web

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/session"
	"electsim/sim"
)

// Limits bound what the server holds for its browsers.
type Limits struct {
	Sessions int           // the most sessions open at once: one per tab
	Body     int64         // the largest request body, in bytes
	Idle     time.Duration // a session nobody asked anything of for this long is closed
}

// DefaultLimits are the server's limits unless told otherwise (docs/web.md says them).
var DefaultLimits = Limits{Sessions: 16, Body: 64 << 10, Idle: 30 * time.Minute}

// Options configure a Server.
type Options struct {
	// Config and Scenario are what a new tab plays: the run the command line describes, and
	// the scenario it comes from (nil for a run the flags describe).
	Config   sim.Config
	Scenario *scenarios.Scenario
	Limits   Limits
	// Clock tells the time for the idle limit only; nil is time.Now. It never reaches a run.
	Clock func() time.Time
	// Tool names the command in saved sessions' comments: "electsim web".
	Tool string
}

// Server holds the sessions of the browsers it serves. Its methods are safe for concurrent use.
type Server struct {
	opts     Options
	mu       sync.Mutex
	sessions map[string]*entry
}

// entry is one tab's session, with its own lock: requests of one tab are served in turn.
type entry struct {
	mu   sync.Mutex
	ss   *session.Session
	sc   scenarioInfo
	used time.Time // the last request, for the idle limit (guarded by Server.mu)
}

// scenarioInfo is what a session was made from, to make it again for a replay.
type scenarioInfo struct {
	name string
	sc   *scenarios.Scenario
}

// NewServer returns a server whose new tabs play what opts describes.
func NewServer(opts Options) *Server {
	if opts.Scenario != nil && opts.Scenario.Name == "" {
		opts.Scenario = nil // a run the flags describe: no title, narration nor expectations of its own
	}
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Tool == "" {
		opts.Tool = "electsim web"
	}
	return &Server{opts: opts, sessions: map[string]*entry{}}
}

// Close closes every session.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, e := range s.sessions {
		e.mu.Lock()
		e.ss.Close()
		e.mu.Unlock()
		delete(s.sessions, id)
	}
}

// Handler returns the server's HTTP handler: the page and its files at /, the API under /api/.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	files := staticHandler()
	mux.HandleFunc("GET /api/scenarios", s.listScenarios)
	mux.HandleFunc("POST /api/sessions", s.create)
	mux.HandleFunc("GET /api/sessions/{id}", s.op)
	mux.HandleFunc("DELETE /api/sessions/{id}", s.remove)
	mux.HandleFunc("POST /api/sessions/{id}/{op}", s.op)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/"):
			fail(w, http.StatusNotFound, fmt.Sprintf("no such request: %s %s", r.Method, r.URL.Path))
		case r.Method != http.MethodGet && r.Method != http.MethodHead:
			fail(w, http.StatusMethodNotAllowed, r.Method+" "+r.URL.Path+": the page's files are only read (GET)")
		default:
			files.ServeHTTP(w, r)
		}
	})
	return mux
}

// apiError is the body of every refused request.
type apiError struct {
	Error string `json:"error"`
}

func fail(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, apiError{msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// decode reads r's JSON body into v: at most the body limit, no unknown fields, one value. An
// empty body leaves v as it is.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.Limits.Body))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request is larger than %d bytes", s.opts.Limits.Body))
		return false
	case err != nil:
		fail(w, http.StatusBadRequest, "reading the request: "+err.Error())
		return false
	case len(strings.TrimSpace(string(body))) == 0:
		return true
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		fail(w, http.StatusBadRequest, "the request is not the JSON expected: "+err.Error())
		return false
	}
	if dec.More() {
		fail(w, http.StatusBadRequest, "the request holds more than one JSON value")
		return false
	}
	return true
}

// scenarioEntry is one bundled scenario, for the page's chooser.
type scenarioEntry struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

func (s *Server) listScenarios(w http.ResponseWriter, _ *http.Request) {
	var out []scenarioEntry
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.LoadBundled(name)
		if err != nil {
			continue // a bundled scenario parses: its tests say so
		}
		out = append(out, scenarioEntry{name, sc.Title})
	}
	writeJSON(w, http.StatusOK, out)
}

// createRequest opens a session: of a bundled scenario, or ("") of what the server plays.
type createRequest struct {
	Scenario string `json:"scenario"`
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !s.decode(w, r, &req) {
		return
	}
	cfg, info := s.opts.Config, scenarioInfo{sc: s.opts.Scenario}
	if info.sc != nil {
		info.name = info.sc.Name
	}
	if req.Scenario != "" {
		sc, err := scenarios.LoadBundled(req.Scenario)
		if err != nil {
			fail(w, http.StatusNotFound, err.Error())
			return
		}
		cfg, info = sc.Config(), scenarioInfo{name: sc.Name, sc: sc}
		cfg.Engine = s.opts.Config.Engine
	}
	if !s.room(w) {
		return
	}
	ss, err := session.New(cfg, info.sc)
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	if n := len(s.sessions); n >= s.opts.Limits.Sessions { // others took the room meanwhile
		s.mu.Unlock()
		ss.Close()
		fail(w, http.StatusTooManyRequests, full(n, s.opts.Limits.Idle))
		return
	}
	id := newID()
	s.sessions[id] = &entry{ss: ss, sc: info, used: s.opts.Clock()}
	v := viewOf(id, ss, info, -1, 0) // nobody has the id yet: nobody else uses ss
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, v)
}

// room reports whether there is room for one more session, closing the idle ones first; if
// not, it answers 429.
func (s *Server) room(w http.ResponseWriter) bool {
	s.mu.Lock()
	s.sweep()
	n := len(s.sessions)
	s.mu.Unlock()
	if n < s.opts.Limits.Sessions {
		return true
	}
	fail(w, http.StatusTooManyRequests, full(n, s.opts.Limits.Idle))
	return false
}

// full is the message of a server holding all the sessions it may.
func full(n int, idle time.Duration) string {
	return fmt.Sprintf("%d sessions are open, the most this server holds: close a tab, or wait %s for an idle one to close", n, idle)
}

// newID is a session's id: 128 random bits, which no other tab guesses.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sweep closes the sessions idle for longer than the limit. s.mu is held.
func (s *Server) sweep() {
	now := s.opts.Clock()
	for id, e := range s.sessions {
		if now.Sub(e.used) > s.opts.Limits.Idle {
			delete(s.sessions, id)
			go func() { // it may be serving a request still: close it once that is done
				e.mu.Lock()
				e.ss.Close()
				e.mu.Unlock()
			}()
		}
	}
}

// lookup returns the session id, locked, or answers 404.
func (s *Server) lookup(w http.ResponseWriter, id string) *entry {
	s.mu.Lock()
	s.sweep()
	e := s.sessions[id]
	if e != nil {
		e.used = s.opts.Clock()
	}
	s.mu.Unlock()
	if e == nil {
		fail(w, http.StatusNotFound, "no session "+quote(id)+": it was closed, or has been idle too long; reload the page")
		return nil
	}
	e.mu.Lock()
	return e
}

// quote shows an id from a request, cut short.
func quote(id string) string {
	if len(id) > 40 {
		id = id[:40] + "…"
	}
	return fmt.Sprintf("%q", id)
}

func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s.mu.Lock()
	e := s.sessions[id]
	delete(s.sessions, id)
	s.mu.Unlock()
	if e == nil {
		fail(w, http.StatusNotFound, "no session "+quote(id))
		return
	}
	e.mu.Lock()
	e.ss.Close()
	e.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// opRequest is the body of a request on a session; each op reads the fields it needs.
type opRequest struct {
	Gen  int `json:"gen"`  // the generation of the page's log
	From int `json:"from"` // how many log rows the page has
	// N is how many steps: next and back (default 1).
	N int `json:"n"`
	// To is the instant to play to, in nanoseconds of virtual time (play).
	To int64 `json:"to"`
	// Command is a scenario action (act): "crash 3", "partition 1 2 | 3 4 5".
	Command string `json:"command"`
	// Toggle makes a pause or resume whichever fits its node (act).
	Toggle bool `json:"toggle"`
}

// maxSteps bounds the steps one request may ask for.
const maxSteps = 1_000_000

func (s *Server) op(w http.ResponseWriter, r *http.Request) {
	op := r.PathValue("op")
	if r.Method == http.MethodGet {
		op = "state"
	}
	req := opRequest{From: -1, Gen: -1, N: 1}
	if !s.decode(w, r, &req) {
		return
	}
	if req.N < 0 || req.N > maxSteps {
		fail(w, http.StatusBadRequest, fmt.Sprintf("n: expected 0 to %d steps, not %d", maxSteps, req.N))
		return
	}
	e := s.lookup(w, r.PathValue("id"))
	if e == nil {
		return
	}
	defer e.mu.Unlock()
	ss, id := e.ss, r.PathValue("id")
	msg := ""
	switch op {
	case "state":
	case "next":
		for range req.N {
			if _, ok := ss.Next(); !ok || ss.AtBreak() {
				break
			}
		}
	case "back":
		if err := ss.Back(req.N); err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
	case "play":
		if req.To < 0 {
			fail(w, http.StatusBadRequest, "to: expected an instant of virtual time, in nanoseconds, not a negative one")
			return
		}
		ss.PlayTo(time.Duration(req.To))
	case "restart":
		if err := ss.Restart(); err != nil {
			fail(w, http.StatusInternalServerError, err.Error())
			return
		}
	case "act":
		m, code := act(ss, req)
		if code != 0 {
			fail(w, code, m)
			return
		}
		msg = m
	case "save":
		writeJSON(w, http.StatusOK, map[string]string{"name": ss.SaveName(), "text": ss.File(ss.SaveName(), s.opts.Tool)})
		return
	case "replay":
		s.replay(w, e)
		return
	default:
		fail(w, http.StatusNotFound, fmt.Sprintf("no such request %q: expected next, back, play, restart, act, save or replay", op))
		return
	}
	v := viewOf(id, ss, e.sc, req.Gen, req.From)
	v.Message = msg
	writeJSON(w, http.StatusOK, v)
}

// act takes the action req.Command names, and says what happened; or a message and a 4xx code.
func act(ss *session.Session, req opRequest) (string, int) {
	text := strings.TrimSpace(req.Command)
	if text == "" {
		return "command: expected a scenario action, such as crash 3", http.StatusBadRequest
	}
	a, err := scenarios.ParseAction(text, ss.Members())
	if err != nil {
		return err.Error(), http.StatusBadRequest
	}
	t, err := ss.Act(a, req.Toggle)
	if m := refusal(err); m != "" {
		return m, http.StatusConflict
	}
	if err != nil {
		return err.Error(), http.StatusBadRequest
	}
	if t.AtBreak {
		return fmt.Sprintf("%s at %s, once the break is over", t.Happened, algo.FormatDuration(t.Action.At)), 0
	}
	return fmt.Sprintf("%s at %s", t.Happened, algo.FormatDuration(t.Action.At)), 0
}

func (s *Server) replay(w http.ResponseWriter, e *entry) {
	cfg := e.ss.Config()
	cfg.Actions = append(append([]sim.Action{}, cfg.Actions...), e.ss.User()...)
	var b strings.Builder
	if err := WriteReplay(&b, cfg, e.sc.sc); err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	name := strings.TrimSuffix(e.ss.SaveName(), ".scn") + ".html"
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	_, _ = io.WriteString(w, b.String())
}
