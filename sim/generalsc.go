package sim

// Squirrel & Cull's rule (squirrel-cull, literature.go) on the general
// kernel: Warnsdorff's minimum degree from the kernel's state bytes, ties
// to the first move of the current move-ordering, the ordering switched
// when the knight stands on the table's next switching square. It walks
// exactly the walks of the rule's policy (TestSquirrelCullNative), without
// a call through the Policy interface and a scan of the board's squares a
// walk: sweeps to n = 2000 are this rule's home.

// scKernel is the rule's table on one board: for each ordering in use its
// TieFirst choice (the offset of a mask's first move, masks over k.off),
// and the padded squares where the orderings switch.
type scKernel struct {
	first      [][256]int32 // first[o][mask]: ordering o's first move of mask (o = 0: table row 0's, until (1,1))
	firstWords [][256]int32 // the same over the step loops' masks (the words' order, genWordMove)
	switch_    []int        // switch_[t]: the padded square that makes row t's ordering current (t = 0: (1,1)); -1 none
}

// identityMoves maps bit i of a mask over k.off (allowed's order) to move
// i.
var identityMoves = [8]int{0, 1, 2, 3, 4, 5, 6, 7}

// nativeSquirrelCull reports whether r is squirrel-cull on a board the
// general kernel walks it on.
func nativeSquirrelCull(b *Board, r Rule) bool {
	return r.Kind == Custom && r.Custom == "squirrel-cull" && b.Squares() > 64 && b.Rows == b.Cols
}

func (k *genKernel) makeSC() {
	table := squirrelCullTable(k.b.Rows)
	sc := &scKernel{}
	for t, row := range table {
		order := orderingMoves(row.order)
		sc.first = append(sc.first, k.firstOffsets(ranksOf(order[:]), &identityMoves))
		sc.firstWords = append(sc.firstWords, k.firstOffsets(ranksOf(order[:]), &genWordMove))
		// Row t's ordering takes over on the square of row t-1 ((1,1) for
		// row 0); row t's own square hands over to row t+1.
		at := -1
		if t == 0 {
			at = k.pad(0)
		} else if prev := table[t-1]; prev.i != 0 && k.b.On(prev.i-1, prev.j-1) {
			at = k.pad(k.b.Square(prev.i-1, prev.j-1))
		}
		sc.switch_ = append(sc.switch_, at)
	}
	k.sc = sc
}

// walkSC is walk for squirrel-cull: the 1996 steps as the policy takes
// them (t = 0 and the first ordering until (1,1); each switching square
// reached makes the next row's ordering current).
func (k *genKernel) walkSC(start int, keep bool) Outcome {
	sc := k.sc
	o := Outcome{Start: start}
	cur := k.pad(start)
	t := 0 // rows passed
	ord := 0
	arrive := func(p int) {
		if t < len(sc.switch_) && p == sc.switch_[t] {
			ord = t
			t++
		}
	}
	k.visit(cur, true)
	arrive(cur)
	for {
		moves := k.allowed(cur, true)
		if moves == 0 {
			break
		}
		if len(k.path) > k.maxSteps {
			o.Stopped = true
			break
		}
		cur += int(sc.first[ord][moves])
		k.visit(cur, true)
		arrive(cur)
	}
	k.ended(&o, cur, keep)
	k.clear(true)
	return o
}
