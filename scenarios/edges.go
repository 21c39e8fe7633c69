package scenarios

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"electsim/algo"
)

// MaxEdgeFileSize is the most bytes an edge-list file (topology file:PATH) may hold.
const MaxEdgeFileSize = 16 << 20

// edgeFiles are the rules of an edge-list file: a regular file, never a pipe — a named pipe no
// one writes to would hold the program forever.
var edgeFiles = fileRules{limit: MaxEdgeFileSize, what: "an edge-list file",
	give: "give an edge-list file, one edge a line: two node ids",
	big:  "an edge-list file holds one edge a line, two node ids"}

// place is where something was written: a file, a line and a column (in bytes, from 1).
type place struct {
	file      string
	line, col int
}

// EdgeList is a graph given as its edges — an edge-list file's, or a scenario's `topology
// edges` — in the order written, each with where it was written, for errors.
type EdgeList struct {
	Edges [][2]algo.ID
	at    []place // at[i] is where Edges[i] was written; nil for a list made by a program
}

// ReadEdgeFile reads the edge-list file at path, as the command line names one (--topology
// file:PATH, PATH as given): one edge a line, two positive node ids apart (a comma will do);
// blank lines and text after '#' are ignored. The file is read once, whole, and only if it is
// a regular file of at most MaxEdgeFileSize bytes outside /proc and /sys. Its errors say
// path:line:col and what was expected, quoting at most a short, escaped word of the file.
func ReadEdgeFile(path string) (*EdgeList, error) {
	src, err := readBounded(path, edgeFiles)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: no such file; %s", path, edgeFiles.give)
	case err != nil:
		return nil, err
	}
	return parseEdgeFile(path, src)
}

// parseEdgeFile parses an edge list read from path.
func parseEdgeFile(path string, src []byte) (*EdgeList, error) {
	l := &EdgeList{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, MaxEdgeFileSize+1)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		var ids []algo.ID
		var cols []int
		for col := 0; col < len(text); {
			if strings.IndexByte(" \t\r,", text[col]) >= 0 {
				col++
				continue
			}
			end := col
			for end < len(text) && strings.IndexByte(" \t\r,", text[end]) < 0 {
				end++
			}
			word := text[col:end]
			if len(ids) == 2 {
				return nil, fmt.Errorf("%s:%d:%d: %s after the edge's two ids: expected one edge a line", path, line, col+1, quoteWord(word))
			}
			v, err := strconv.ParseInt(word, 10, 32)
			if err != nil || v <= 0 {
				return nil, fmt.Errorf("%s:%d:%d: %s: expected a node id, a positive whole number", path, line, col+1, quoteWord(word))
			}
			ids, cols = append(ids, algo.ID(v)), append(cols, col+1)
			col = end
		}
		switch {
		case len(ids) == 1:
			return nil, fmt.Errorf("%s:%d:%d: an edge needs two node ids, this line has one", path, line, cols[0])
		case len(ids) == 2 && ids[0] == ids[1]:
			return nil, fmt.Errorf("%s:%d:%d: edge %d–%d joins a node to itself", path, line, cols[1], ids[0], ids[1])
		case len(ids) == 2:
			l.Edges = append(l.Edges, [2]algo.ID{ids[0], ids[1]})
			l.at = append(l.at, place{path, line, cols[0]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(l.Edges) == 0 {
		return nil, fmt.Errorf("%s: no edges; write one edge a line: two node ids", path)
	}
	return l, nil
}

// quoteWord quotes a word of a file for an error: escaped, and cut short when long, so that
// an error never shows more than a few characters of what a file holds.
func quoteWord(w string) string {
	const most = 12
	if r := []rune(w); len(r) > most {
		return strconv.Quote(string(r[:most])) + "…"
	}
	return strconv.Quote(w)
}

// Check says which edge names a node that is not one of ids, where it was written; nil when
// every edge joins two of them. by says where ids were set, when not in the scenario: "--nodes
// 3".
func (l *EdgeList) Check(ids []algo.ID, by string) error {
	m := NewMembers(ids)
	for i, e := range l.Edges {
		for _, id := range e {
			if m.have[id] {
				continue
			}
			where := ""
			if i < len(l.at) {
				where = fmt.Sprintf("%s:%d:%d: ", l.at[i].file, l.at[i].line, l.at[i].col)
			}
			nodes := m.String()
			if by != "" {
				nodes += ", set by " + by
			}
			return fmt.Errorf("%sthe edge %d–%d names node %d, which is not in the run (nodes are %s); its edges must join the run's ids",
				where, e[0], e[1], id, nodes)
		}
	}
	return nil
}

// edgeFilePath returns the path of the edge-list file a scenario's `topology file:PATH` names:
// PATH relative to the scenario file's folder, and within it. A scenario travels between
// strangers, and reads only what travels with it: an absolute path, a path that climbs out of
// its folder, or a link that leads out of it, is refused, saying how to give such a file
// (--topology on the command line). A scenario not read from a file — a program's — names a
// path as it is.
func (s *Scenario) edgeFilePath(path string) (string, error) {
	if s.bundled {
		return "", fmt.Errorf("a bundled scenario names no file")
	}
	if s.File() == "" {
		return path, nil
	}
	how := fmt.Sprintf("put the file in the scenario's folder, or give it on the command line: --topology file:%s", path)
	if filepath.IsAbs(path) {
		return "", fmt.Errorf("%s: a scenario names its edge-list file relative to its own folder, and this path is absolute; %s", path, how)
	}
	if !filepath.IsLocal(path) {
		return "", fmt.Errorf("%s: a scenario reads only files in its own folder, and this path leads out of it; %s", path, how)
	}
	dir := filepath.Dir(s.File())
	full := filepath.Join(dir, path)
	realDir, err1 := filepath.EvalSymlinks(dir)
	realFull, err2 := filepath.EvalSymlinks(full)
	if err1 != nil || err2 != nil {
		return full, nil // not there: reading it says so
	}
	if rel, err := filepath.Rel(realDir, realFull); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s: a link that leads out of the scenario's folder; a scenario reads only files in its own folder: %s", full, how)
	}
	return full, nil
}

// readEdgeFile reads the edge-list file the scenario's `topology file:PATH` line names, once
// (edgeFilePath), and checks its edges join the scenario's nodes into one connected graph.
// Its errors are at the topology line's word.
func (s *Scenario) readEdgeFile() error {
	path, ok := strings.CutPrefix(s.Topology, algo.File+":")
	if !ok {
		return nil
	}
	fail := func(err error) error {
		return ErrorList{{File: s.file, Line: s.topologyAt.line, Col: s.topologyAt.col, Msg: err.Error()}}
	}
	full, err := s.edgeFilePath(path)
	if err != nil {
		return fail(err)
	}
	l, err := ReadEdgeFile(full)
	if err != nil {
		return fail(err)
	}
	if err := l.Check(s.IDs, ""); err != nil {
		return fail(err)
	}
	if _, err := algo.NewClusterGraph(s.IDs, s.resolve(s.Topology), l.Edges, s.Seed, s.Delay.Max, nil); err != nil {
		return fail(err)
	}
	s.Edges, s.edgeAt = l.Edges, l.at
	return nil
}

// Inline returns a copy of s whose graph, if it is a file's, is written in it (`topology
// edges …`): a scenario that travels as text, without its files — a page in a browser, a link.
// Format writes a scenario whose file was read with its edges inline already; Inline says so
// in the scenario itself.
func (s *Scenario) Inline() *Scenario {
	c := *s
	if c.Edges != nil {
		c.Topology = algo.EdgeList
	}
	return &c
}

// edgesPerLine is how many edges Format writes on a line.
const edgesPerLine = 16

// formatEdges writes the graph's edges as the scenario language does: on the topology line
// when they fit, else `topology edges` and then `edges` lines.
func formatEdges(line func(directive, value string), edges [][2]algo.ID) {
	words := make([]string, len(edges))
	for i, e := range edges {
		words[i] = strconv.Itoa(int(e[0])) + "-" + strconv.Itoa(int(e[1]))
	}
	if len(words) <= edgesPerLine {
		line("topology", algo.EdgeList+" "+strings.Join(words, " "))
		return
	}
	line("topology", algo.EdgeList)
	for len(words) > 0 {
		n := min(len(words), edgesPerLine)
		line(algo.EdgeList, strings.Join(words[:n], " "))
		words = words[n:]
	}
}

// ParseEdges reads edges written as a scenario's `topology edges` line writes them — "1-2
// 2-3 3-1", two node ids joined by '-', apart by spaces or commas — as --topology 'edges …'
// gives them. Its error says the column.
func ParseEdges(text string) ([][2]algo.ID, error) {
	lp, lerr := newParser(text, 0, nil)
	if lerr != nil {
		return nil, lerr
	}
	p := &fileParser{sc: New(""), seen: map[string]int{}}
	p.edges(lp)
	switch {
	case lp.err != nil:
		return nil, lp.err
	case len(p.sc.Edges) == 0:
		return nil, &Error{Col: 1, Msg: "expected edges, two node ids joined by -, such as edges 1-2 2-3 3-1"}
	}
	return p.sc.Edges, nil
}
