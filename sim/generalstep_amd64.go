//go:build amd64 && !purego

package sim

// genStepAsm says the general kernel's random-walk and Warnsdorff/random
// step loops run in assembly (generalstep_amd64.s), where the CPU has
// what they use (haveStepLoops: every x86-64 CPU since 2013); tests set it
// false to hold the Go loops to the same walks on this machine.
var genStepAsm = haveStepLoops

// genLanesRandom, genLanesWarnsdorff and genLanesFirst step the lanes
// ls[:n] as runLanesRandom, runLanesWarnsdorff and runLanesFirst do, for at most budget steps, and
// return the byte offset of the lane they stop at and why
// (generalstep_amd64.s).
//
//go:noescape
func genLanesRandom(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)

//go:noescape
func genLanesWarnsdorff(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)

//go:noescape
func genLanesFirst(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)

// genLanesTied steps the lanes as runLanesTieBreak does, but hands a
// lane at a tie back (reason 4) for Go's tie step.
//
//go:noescape
func genLanesTied(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)

// genFillVec says the draw buffers are filled by AVX-512 (eight rows of a
// stream at a time, by its jumps), else one row at a time; tests set it
// false to hold the scalar fill to the same outputs.
var genFillVec = haveAVX512

// genFillDraws fills the lane's draw buffer from its state (hi, lo): row
// k is the output of the stream's step k+1 on (generalstep_amd64.s).
//
//go:noescape
func genFillDraws(l *genLane, t *genTables)

// genVecRandom says the random walk's batches run on the wide kernel
// (genvec.go) where the CPU has AVX-512; tests set it false to hold the
// scalar lanes to the same walks on this machine.
var genVecRandom = haveAVX512

// genVecRandomLoop steps the wide lanes in flight (s.act) for at most
// budget rounds and returns the lane it stops at and why: 0 the lane has
// no move, 1 its draw buffer is used up, 2 Lemire's method rejects its
// draw on a tie, 3 the budget is spent (genvec_amd64.s).
//
//go:noescape
func genVecRandomLoop(s *genVecState, budget int) (lane, reason int)
