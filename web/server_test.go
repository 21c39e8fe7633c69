package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"electsim/scenarios"
	"electsim/session"
)

// api is a test server and a way to call it.
type api struct {
	t   *testing.T
	srv *Server
	hs  *httptest.Server
}

func newAPI(t *testing.T, opts Options) *api {
	t.Helper()
	if opts.Config.Algorithm == nil {
		opts.Config, opts.Scenario = bundled(t, scenarios.DefaultDemo)
	}
	srv := NewServer(opts)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return &api{t, srv, hs}
}

// call sends body (a string, or a value encoded as JSON) and returns the status and the body.
func (a *api) call(method, path string, body any) (int, []byte) {
	a.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		js, _ := json.Marshal(b)
		r = strings.NewReader(string(js))
	}
	req, _ := http.NewRequest(method, a.hs.URL+path, r)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out
}

func (a *api) open(scenario string) *view {
	a.t.Helper()
	code, body := a.call("POST", "/api/sessions", map[string]string{"scenario": scenario})
	if code != http.StatusCreated {
		a.t.Fatalf("opening a session: %d %s", code, body)
	}
	var v view
	if err := json.Unmarshal(body, &v); err != nil {
		a.t.Fatal(err)
	}
	return &v
}

func (a *api) op(id, op string, body any) *view {
	a.t.Helper()
	code, out := a.call("POST", "/api/sessions/"+id+"/"+op, body)
	if code != http.StatusOK {
		a.t.Fatalf("%s: %d %s", op, code, out)
	}
	var v view
	if err := json.Unmarshal(out, &v); err != nil {
		a.t.Fatal(err)
	}
	return &v
}

// wantError checks a refused request: its status, and a JSON error that says what.
func wantError(t *testing.T, what string, code int, body []byte, wantCode int, wantText string) {
	t.Helper()
	var e apiError
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("%s: the error is not JSON: %s", what, body)
	}
	if code != wantCode || !strings.Contains(e.Error, wantText) {
		t.Fatalf("%s: got %d %q, want %d and %q", what, code, e.Error, wantCode, wantText)
	}
}

// TestAPISteps steps, plays, steps back and acts through the API, and compares each answer with
// a session driven the same way.
func TestAPISteps(t *testing.T) {
	a := newAPI(t, Options{})
	v := a.open("")
	if v.Name != scenarios.DefaultDemo || v.Step != 0 || len(v.Picture.Nodes) != 5 {
		t.Fatalf("a new session: %+v", v)
	}
	cfg, sc := bundled(t, scenarios.DefaultDemo)
	ss, err := session.New(cfg, sc)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	check := func(what string, v *view) {
		t.Helper()
		var p session.Picture
		ss.Picture(&p, 0)
		want, _ := json.Marshal(&p)
		got, _ := json.Marshal(v.Picture)
		if string(got) != string(want) || v.Step != len(ss.Steps()) {
			t.Fatalf("%s: step %d picture\n%s\nwant step %d\n%s", what, v.Step, got, len(ss.Steps()), want)
		}
	}
	v = a.op(v.ID, "next", map[string]int{"n": 10, "from": 0, "gen": v.Gen})
	for range 10 {
		ss.Next()
		if ss.AtBreak() {
			break
		}
	}
	check("10 steps", v)
	if len(v.Log) != v.Step || v.From != 0 {
		t.Fatalf("the log after 10 steps: from %d, %d rows", v.From, len(v.Log))
	}
	gen, rows := v.Gen, len(v.Log)
	v = a.op(v.ID, "play", map[string]any{"to": int64(ss.Now() + 3*time.Millisecond), "from": rows, "gen": gen})
	ss.PlayTo(ss.Now() + 3*time.Millisecond)
	check("played 3ms on", v)
	if v.From != rows {
		t.Fatalf("the log's rows start at %d, the page had %d", v.From, rows)
	}
	v = a.op(v.ID, "back", map[string]int{"n": 4})
	if err := ss.Back(4); err != nil {
		t.Fatal(err)
	}
	check("4 steps back", v)
	v = a.op(v.ID, "act", map[string]string{"command": "crash 5"})
	act, _ := scenarios.ParseAction("crash 5", ss.Members())
	if _, err := ss.Act(act, false); err != nil {
		t.Fatal(err)
	}
	check("crash 5", v)
	if !strings.HasPrefix(v.Message, "crash 5 at ") {
		t.Fatalf("the message of an action taken: %q", v.Message)
	}
	code, body := a.call("POST", "/api/sessions/"+v.ID+"/save", nil)
	var saved map[string]string
	if code != 200 || json.Unmarshal(body, &saved) != nil || !strings.Contains(saved["text"], "crash 5") {
		t.Fatalf("save: %d %s", code, body)
	}
	if want := ss.File(ss.SaveName(), "electsim web"); saved["text"] != want {
		t.Fatalf("saved:\n%s\nwant:\n%s", saved["text"], want)
	}
	v = a.op(v.ID, "restart", nil)
	if v.Step != 0 || v.Gen == gen {
		t.Fatalf("after a restart: step %d, generation %d (was %d)", v.Step, v.Gen, gen)
	}
}

// TestAPIRefuses sends malformed requests: each is a 4xx with a JSON error that says what.
func TestAPIRefuses(t *testing.T) {
	a := newAPI(t, Options{})
	v := a.open("")
	path := "/api/sessions/" + v.ID
	for _, c := range []struct {
		what, method, path string
		body               any
		code               int
		text               string
	}{
		{"bad JSON", "POST", path + "/next", `{"n": `, 400, "not the JSON expected"},
		{"a field it does not know", "POST", path + "/next", `{"steps": 3}`, 400, `unknown field "steps"`},
		{"two values", "POST", path + "/next", `{} {}`, 400, "more than one JSON value"},
		{"a negative count", "POST", path + "/back", `{"n": -1}`, 400, "n: expected 0 to"},
		{"a negative instant", "POST", path + "/play", `{"to": -5}`, 400, "to: expected an instant"},
		{"an unknown session", "POST", "/api/sessions/nosuch/next", nil, 404, `no session "nosuch"`},
		{"an unknown request", "POST", path + "/fly", nil, 404, `no such request "fly"`},
		{"an unknown path", "GET", "/api/nothing", nil, 404, "no such request"},
		{"a write to the page", "PUT", "/index.html", nil, 405, "only read"},
		{"an unknown node", "POST", path + "/act", map[string]string{"command": "crash 9"}, 400, "9"},
		{"an unknown action", "POST", path + "/act", map[string]string{"command": "explode 3"}, 400, "explode"},
		{"no action", "POST", path + "/act", map[string]string{"command": " "}, 400, "expected a scenario action"},
		{"an action that changes nothing", "POST", path + "/act", map[string]string{"command": "heal"}, 409, "nothing done"},
		{"an unknown scenario", "POST", "/api/sessions", map[string]string{"scenario": "nosuch"}, 404, `no bundled scenario called "nosuch"`},
		{"an oversize body", "POST", path + "/act", `{"command": "` + strings.Repeat("x", 70<<10) + `"}`, 413, "larger than 65536 bytes"},
	} {
		code, body := a.call(c.method, c.path, c.body)
		wantError(t, c.what, code, body, c.code, c.text)
	}
	// The session is as it was: none of them changed it.
	if v2 := a.op(v.ID, "state", nil); v2.Step != 0 {
		t.Fatalf("after the refused requests the session is at step %d", v2.Step)
	}
	code, body := a.call("DELETE", path, nil)
	if code != http.StatusNoContent {
		t.Fatalf("closing: %d %s", code, body)
	}
	code, body = a.call("GET", path, nil)
	wantError(t, "a closed session", code, body, 404, "no session")
}

// TestAPILimits opens more sessions than the limit, then lets them go idle.
func TestAPILimits(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	a := newAPI(t, Options{Limits: Limits{Sessions: 3, Body: 1 << 10, Idle: time.Minute}, Clock: clock})
	var ids []string
	for range 3 {
		ids = append(ids, a.open("bully-partition").ID)
	}
	code, body := a.call("POST", "/api/sessions", nil)
	wantError(t, "a fourth session", code, body, 429, "3 sessions are open")
	mu.Lock()
	now = now.Add(50 * time.Second)
	mu.Unlock()
	a.op(ids[0], "next", nil) // keeps the first alive
	mu.Lock()
	now = now.Add(30 * time.Second)
	mu.Unlock()
	a.open("") // the other two have been idle 80s: closed, room made
	code, body = a.call("GET", "/api/sessions/"+ids[1], nil)
	wantError(t, "an idle session", code, body, 404, "idle too long")
	a.op(ids[0], "state", nil)
	code, body = a.call("POST", "/api/sessions/"+ids[0]+"/act", `{"command": "`+strings.Repeat("x", 2<<10)+`"}`)
	wantError(t, "a body over the limit", code, body, 413, "larger than 1024 bytes")
}

// TestAPIScenarios lists the bundled library for the chooser, and opens one of it.
func TestAPIScenarios(t *testing.T) {
	a := newAPI(t, Options{})
	code, body := a.call("GET", "/api/scenarios", nil)
	var list []scenarioEntry
	if code != 200 || json.Unmarshal(body, &list) != nil || len(list) != len(scenarios.Bundled()) {
		t.Fatalf("the scenarios: %d %s", code, body)
	}
	for _, e := range list {
		if e.Title == "" {
			t.Errorf("%s has no title", e.Name)
		}
	}
	v := a.open("raft-boot-split-vote")
	if v.Name != "raft-boot-split-vote" || v.Algorithm != "raft" {
		t.Fatalf("opened %q (%s)", v.Name, v.Algorithm)
	}
	code, body = a.call("GET", "/", nil)
	if code != 200 || !strings.Contains(string(body), `<script type="module" src="app.js">`) {
		t.Fatalf("the page: %d %.200s", code, body)
	}
	code, body = a.call("POST", "/api/sessions/"+v.ID+"/replay", nil)
	if code != 200 || !strings.Contains(string(body), `id="replay"`) {
		t.Fatalf("the replay: %d %.200s", code, body)
	}
}

// TestAPIConcurrentTabs drives several sessions at once (go test -race finds what is shared).
func TestAPIConcurrentTabs(t *testing.T) {
	a := newAPI(t, Options{})
	var wg sync.WaitGroup
	for i := range 4 {
		v := a.open("")
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				code, body := a.call("POST", "/api/sessions/"+v.ID+"/next", fmt.Sprintf(`{"n": %d}`, i+j%3))
				if code != 200 {
					t.Errorf("tab %d: %d %s", i, code, body)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestAPIConcurrentOpens opens sessions from many tabs at once: exactly the limit succeed, the
// rest are told the server is full.
func TestAPIConcurrentOpens(t *testing.T) {
	a := newAPI(t, Options{Limits: Limits{Sessions: 3, Body: 1 << 10, Idle: time.Hour}})
	codes := make(chan int, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := http.Post(a.hs.URL+"/api/sessions", "application/json", strings.NewReader("{}"))
			if err != nil {
				codes <- 0
				return
			}
			res.Body.Close()
			codes <- res.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	if count[http.StatusCreated] != 3 || count[http.StatusTooManyRequests] != 5 {
		t.Fatalf("8 opens at once with room for 3: %v", count)
	}
}
