package network_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"electsim/algo"
	"electsim/network"
)

// A fixed 10ms delay, then `partition 1 2 | 3 4 5` and `cut 3->4`.
func Example() {
	n, err := network.New(network.Config{Delay: network.Delay{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond}, FIFO: true},
		rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	at, _ := n.Send(5*time.Millisecond, 1, 3)
	fmt.Println("1->3 delivered at", at)

	n.Partition([][]algo.ID{{1, 2}})
	n.Cut(network.Link{From: 3, To: 4})
	for _, l := range []network.Link{{From: 1, To: 2}, {From: 1, To: 3}, {From: 3, To: 4}, {From: 4, To: 3}} {
		if _, r := n.Send(20*time.Millisecond, l.From, l.To); r != network.Delivered {
			fmt.Println(l, "dropped:", r)
		} else {
			fmt.Println(l, "open")
		}
	}
	fmt.Println("cuts:", n.Cuts())

	n.Heal()
	fmt.Println("after heal: partitioned", n.Partitioned(), "cuts", n.Cuts())
	// Output:
	// 1->3 delivered at 15ms
	// 1->2 open
	// 1->3 dropped: partition
	// 3->4 dropped: cut
	// 4->3 open
	// cuts: [3->4]
	// after heal: partitioned false cuts []
}
