package algo

import "reflect"

func init() {
	fieldDecisions[reflect.TypeFor[Zab]()] = map[string]string{
		"id": "written", "epoch": "written", "accepted": "written", "zxid": "written", "state": "written", "round": "written",
		"vote": "written", "votePart": "shared (never changed once made); written as the vote",
		"votes": "copied, written while looking", "outside": "copied, written while looking",
		"finalizing": "written while looking", "wait": "written while looking", "leader": "written",
		"electedBy": "copied; only the monitor reads it, at the step the server decides",
		"peers":     "copied, written while leading (answers as ages)", "newEpoch": "written while leading",
		"established": "written while leading",
		"all":         "the cluster's, shared", "self": "follows from the id", "cfg": "shared timing and parameters",
	}
}
