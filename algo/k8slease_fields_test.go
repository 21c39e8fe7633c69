package algo

import "reflect"

func init() {
	fieldDecisions[reflect.TypeFor[K8sLease]()] = map[string]string{
		"id": "written", "st": "written", "seen": "written", "seenAt": "written as an age within lease-duration",
		"pending": "written", "want": "written", "fast": "written", "doubt": "written", "roundEnds": "written as a deadline",
		"rec": "written",
		"api": "follows from the cluster", "res": "follows from the cluster", "role": "follows from the id",
		"cfg": "shared timing",
	}
}
