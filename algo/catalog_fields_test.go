package algo

import "reflect"

// The field decisions of the ring catalog's nodes (see TestCloneAndStateCoverEveryField).
func init() {
	fieldDecisions[reflect.TypeFor[HS]()] = map[string]string{
		"id": "written", "status": "written", "leader": "written", "phase": "written", "replies": "written",
		"left": "follows from the id", "right": "follows from the id", "alone": "follows from the cluster",
	}
	fieldDecisions[reflect.TypeFor[Peterson]()] = map[string]string{
		"id": "written", "status": "written", "leader": "written", "relay": "written", "phase": "written",
		"tid": "written", "ntid": "written", "next": "follows from the id", "alone": "follows from the cluster",
	}
	fieldDecisions[reflect.TypeFor[Franklin]()] = map[string]string{
		"id": "written", "status": "written", "leader": "written", "passive": "written", "phase": "written",
		"heard": "copied, written in order of value", "early": "copied, written in order",
		"left": "follows from the id", "right": "follows from the id", "alone": "follows from the cluster",
	}
	fieldDecisions[reflect.TypeFor[ItaiRodeh]()] = map[string]string{
		"self": "written", "status": "written", "leader": "written", "active": "written", "round": "written",
		"rid": "written", "next": "follows from the name", "n": "follows from the cluster",
	}
}
