//go:build race

package explore

// lighter: the race detector is on, ten times slower: the tests explore less deep.
const lighter = true
