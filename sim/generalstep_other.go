//go:build !amd64 || purego

package sim

// genStepAsm is false: the general kernel's step loops are the Go ones
// (generalbatch.go) on this architecture.
var genStepAsm = false

func genLanesRandom(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int) {
	panic("sim: no assembly step loop on this architecture")
}

func genLanesWarnsdorff(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int) {
	panic("sim: no assembly step loop on this architecture")
}

func genLanesFirst(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int) {
	panic("sim: no assembly step loop on this architecture")
}

func genLanesTied(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int) {
	panic("sim: no assembly step loop on this architecture")
}

var genFillVec = false

func genFillDraws(l *genLane, t *genTables) {
	panic("sim: no assembly step loop on this architecture")
}

// genVecRandom is false: no wide kernel on this architecture.
var genVecRandom = false

func genVecRandomLoop(s *genVecState, budget int) (lane, reason int) {
	panic("sim: no wide kernel on this architecture")
}
