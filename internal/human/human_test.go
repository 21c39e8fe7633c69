package human

import (
	"testing"
	"time"
)

func TestDurations(t *testing.T) {
	const ms, us = time.Millisecond, time.Microsecond
	for _, tt := range []struct {
		name string
		f    func(time.Duration) string
		d    time.Duration
		want string
	}{
		{"MillisFixed", MillisFixed, 1000 * ms, "1000.000"},
		{"MillisFixed", MillisFixed, 12345 * us, "12.345"},
		{"MillisFixed", MillisFixed, 0, "0.000"},
		{"Tenths", Tenths, 3400 * us, "3.4ms"},
		{"Tenths", Tenths, 10 * ms, "10.0ms"},
		{"Tenths", Tenths, 1500 * ms, "1500.0ms"},
		{"Millis", Millis, 0, "0ms"},
		{"Millis", Millis, 12500 * us, "12.5ms"},
		{"Millis", Millis, 1300 * ms, "1300ms"},
		{"Millis", Millis, 100 * ms, "100ms"},
		{"Millis", Millis, 61234567, "61.235ms"},
		{"Duration", Duration, 0, "0ms"},
		{"Duration", Duration, 2 * time.Second, "2s"},
		{"Duration", Duration, 5 * time.Minute, "5m"},
		{"Duration", Duration, 3 * time.Hour, "3h"},
		{"Duration", Duration, 1300 * ms, "1300ms"},
		{"Duration", Duration, 61200 * us, "61.2ms"},
		{"Seconds", Seconds, 0, "0ms"},
		{"Seconds", Seconds, 150 * ms, "150ms"},
		{"Seconds", Seconds, 3300 * ms, "3.3s"},
		{"Seconds", Seconds, 2 * time.Minute, "120s"},
		{"Seconds", Seconds, 1001 * ms, "1.001s"},
		{"Seconds", Seconds, 56040 * us, "56.04ms"},
		{"Seconds", Seconds, 1500*ms + 1, "1500ms"},
		{"Brief", Brief, 60 * ms, "60ms"},
		{"Brief", Brief, 189 * ms, "189ms"},
		{"Brief", Brief, 189040 * us, "189.0ms"},
		{"Brief", Brief, 19994 * ms, "19.99s"},
		{"Brief", Brief, 2000 * time.Second, "33m20s"},
		{"Wall", Wall, 1234 * ms, "1.23s"},
		{"Wall", Wall, 56 * ms, "56ms"},
		{"Wall", Wall, 3210 * us, "3.21ms"},
		{"Elapsed", Elapsed, 1234567 * us, "1.23s"},
		{"Elapsed", Elapsed, 850345 * us, "850.3ms"},
	} {
		if got := tt.f(tt.d); got != tt.want {
			t.Errorf("%s(%d) = %q, want %q", tt.name, tt.d, got, tt.want)
		}
	}
}

func TestCounts(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Plural(1, "node"), "1 node"},
		{Plural(0, "node"), "0 nodes"},
		{Plural(3, "node"), "3 nodes"},
		{Plural(1, "action of yours", "actions of yours"), "1 action of yours"},
		{Plural(2, "action of yours", "actions of yours"), "2 actions of yours"},
		{Thousands(0), "0"},
		{Thousands(999), "999"},
		{Thousands(1000), "1,000"},
		{Thousands(20_000_000), "20,000,000"},
		{Thousands(-1500), "-1,500"},
		{Thousands(-150), "-150"},
		{Thousands(-1234567), "-1,234,567"},
		{SI(1_300_000), "1.3M"},
		{SI(850_000), "850k"},
		{SI(42), "42"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
