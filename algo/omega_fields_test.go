package algo

import "reflect"

func init() {
	fieldDecisions[reflect.TypeFor[Omega]()] = map[string]string{
		"id": "written", "epoch": "written", "leader": "written", "period": "written",
		"heard": "copied, written", "all": "the cluster's, shared", "self": "follows from the id",
		"cfg": "shared timing",
	}
}
