package algo

import "reflect"

// The field decisions of FloodMax's and echo's nodes (see TestCloneAndStateCoverEveryField).
func init() {
	fieldDecisions[reflect.TypeFor[FloodMax]()] = map[string]string{
		"id": "written", "status": "written", "leader": "written", "maxUID": "written", "round": "written",
		"cfg": "follows from the cluster", "nbrs": "follows from the id",
	}
	fieldDecisions[reflect.TypeFor[Echo]()] = map[string]string{
		"id": "written", "status": "written", "leader": "written", "caw": "written", "parent": "written",
		"received": "written", "children": "copied, written in order", "nbrs": "follows from the id",
	}
}
