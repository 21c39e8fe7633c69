package algo

import "reflect"

func init() {
	fieldDecisions[reflect.TypeFor[Paxos]()] = map[string]string{
		"id": "written", "promised": "written", "accepted": "copied, written (ballot and value by slot)",
		"chosen": "copied, written", "status": "written", "leader": "written",
		"ballot":   "written while a candidate (a leader's is led)",
		"promises": "copied, written while a candidate", "offered": "copied, written while a candidate",
		"offeredChosen": "written while a candidate",
		"led":           "written", "log": "copied, written while led is set", "known": "written while led is set",
		"acked": "copied, written while led is set", "told": "written while led is set",
		"all": "the cluster's, shared", "self": "follows from the id", "cfg": "shared timing and keys",
	}
}
