// Package interrupt undoes what electsim has under way when it is interrupted — the files it
// is writing, the child processes it runs — and ends it as the signal would: ctrl+c, a
// termination, a hang-up (its terminal closed) or its output pipe closed (| head) leave no half
// written file and no child behind.
package interrupt
