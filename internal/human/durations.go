package human

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The ways electsim writes a duration. Which one a text uses depends on what its reader does
// with it: a column of times lines up (MillisFixed), a trace's times compare at a glance in one
// unit (Millis), a summary says "5s" of a whole run (Duration), a checker's lengths of runs read
// in seconds (Seconds), a time left reads to a tenth of a millisecond (Tenths), a table gives
// about four figures (Brief), and wall-clock times say how
// fast this machine was (Wall, Elapsed).

// MillisFixed writes d in milliseconds with exactly three decimals and no unit, for a column
// of times that line up: "1000.000", "12.345".
func MillisFixed(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64)
}

// Tenths writes d in milliseconds to a tenth, for a time left that changes as a run goes:
// "3.4ms", "10.0ms", "1500.0ms".
func Tenths(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) + "ms"
}

// Millis writes d in milliseconds, to the microsecond, without trailing zeros: "0ms", "12.5ms",
// "1300ms", "61.235ms".
func Millis(d time.Duration) string {
	return trimZeros(MillisFixed(d)) + "ms"
}

// Duration writes a virtual duration in whole hours, minutes or seconds when it is one of them
// ("2s", "5m"), else in milliseconds (Millis): "0ms", "1300ms", "61.235ms".
func Duration(d time.Duration) string {
	switch {
	case d == 0:
		return "0ms"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return Millis(d)
}

// Seconds writes a length of virtual time in seconds from a second up, when it is whole
// milliseconds ("3.3s", "120s"), else in milliseconds (Millis): "150ms", "56.04ms".
func Seconds(d time.Duration) string {
	if d >= time.Second && d%time.Millisecond == 0 {
		ms := int64(d / time.Millisecond)
		return trimZeros(fmt.Sprintf("%d.%03d", ms/1000, ms%1000)) + "s"
	}
	return Millis(d)
}

// Brief writes a virtual time to about four significant figures, for tables and progress
// lines: "60ms", "189.0ms", "19.99s", "33m20s".
func Brief(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d%time.Millisecond == 0:
		return fmt.Sprintf("%dms", d/time.Millisecond)
	}
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}

// Wall writes a wall-clock time for a table column: "1.23s", "56ms", "3.21ms".
func Wall(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

// Elapsed writes a wall-clock time in a sentence, rounded to 10ms above a second and to 0.1ms
// below: "1.23s", "850.3ms".
func Elapsed(d time.Duration) string {
	if d > time.Second {
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(100 * time.Microsecond).String()
}

// trimZeros drops the trailing zeros of a decimal, and its point if nothing follows it.
func trimZeros(s string) string {
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
