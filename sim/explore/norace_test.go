//go:build !race

package explore

const lighter = false
