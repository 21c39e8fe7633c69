// Package web serves a session to a browser and writes a run as a self-contained HTML replay.
//
// The server (Server, Handler) holds one session.Session per browser tab, bounded in number,
// request size and idle time (Limits), and answers a small JSON API that the page in static/
// calls: step, step back, play to an instant, act, restart, save. Every answer carries the
// session's Picture at its instant (docs/picture.md) — the page draws exactly that, nothing
// it computes itself but the scale. No request writes a file on the server, and no wall-clock
// time reaches a run: the page paces playback and asks the server to play virtual time on.
//
// Replay (WriteReplay) plays a run to its end and writes one HTML file — the same page, its
// script and styles inline, the run's pictures encoded once per change (docs/web.md) — that
// opens from file:// with no network and shows, at each step, the picture the live page shows.
package web
