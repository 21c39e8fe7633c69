// Package outfile writes the files electsim makes for its user — traces, diagrams, saved
// sessions, counterexamples — whole or not at all, without ever replacing what is not a file.
//
// What happens depends on what the path names (symbolic links are followed):
//
//   - A regular file, or nothing yet: the text goes to a temporary file beside it, which
//     Commit renames into place, so the file is never seen half written. A file that existed
//     keeps its permissions (and, for root, its owner); a new one gets 0666 less the umask, as
//     a shell's > gives it. A file its user may not write is refused, as > refuses it.
//   - A device, a named pipe or a terminal (/dev/null, /dev/tty, a FIFO): written in place,
//     never replaced — not even by root, whom the permissions would let.
//   - The file this process's standard output or standard error goes to — /dev/stdout, or
//     the file it was redirected to — is written through that stream, in place, so what the
//     stream writes and what the file gets share one position and nothing is lost.
//   - An open descriptor named by path (/dev/fd/3, /proc/self/fd/3): written in place, at its
//     end.
//   - A directory is refused (ErrIsDir), and so is a socket (ErrSocket).
//
// The temporary file is named .NAME.electsim-PID.tmp (PID is the writing process's id; a
// second one at once adds -2, -3, ...). A run killed outright (SIGKILL, a power cut) cannot
// remove it; the next Create of NAME removes those whose process is gone.
package outfile
