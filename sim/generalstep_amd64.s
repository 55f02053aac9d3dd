//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// The general kernel's step loops (generalbatch.go) for the random walk,
// Warnsdorff with random ties and with ties to the first move, written out: the lanes' fields stay in
// memory (genLane), the loop's constants in registers. A step is exactly
// runLanesRandom's or runLanesWarnsdorff's: the same masks, the same draw,
// the same words. What the loop hands back to Go (reason):
//   0  the lane at off has ended its walk (no move);
//   2  the lane must draw again (Lemire's rejection on a tie: Go steps it);
//   3  budget rounds of the lanes were taken (so that a call is short, and
//      so that no path runs out of room: Go calls again);
//   4  the lane at off is at a tie (genLanesTied: Go narrows it);
//   5  the lane at off has arrived at its stop square (genLanesFirst:
//      squirrel-cull switches its ordering there).
// A round is at most a step of each lane, and Go makes budget at most the
// room left in any lane's path (runLanesAsm): the loops do not look.
//
// Registers: R13 the lane (the first at ls+0(FP), past the last at
// n+8(FP)), R12 the tables, DI and SI -pc and pc (a neighbour of the
// square at DX is a byte at DX + 1 or 2 + pc or 2pc, either sign, one
// addressing mode), R10 and R11 msbs's mask and multiplier; AX
// BX CX DX R8 R9 scratch, X9 zero (FILLVEC leaves it), X0 X1 scratch.
// ANDN (BMI1), POPCNT and MINDEG's SSE4.1 and SSSE3: genStepAsm asks for
// them.

// MOVES: AX = msbs(^v) of the lane; ends the walk (ended) on no move.
#define MOVES \
	MOVQ genLane_v(R13), AX; \
	ANDNQ R10, AX, AX; \
	IMULQ R11, AX; \
	SHRQ $56, AX; \
	JZ ended

// MINDEG: R8 = the moves of least degree, minDegree3(moves, v) (a step
// of Warnsdorff's rule): v's bytes are a visited bit (bit 7) over a
// degree of at most 7, so the least byte is an unvisited neighbour's (MOVES
// has found one) and the bytes equal to it are the moves of least degree.
// PHMINPOSUW finds it among v's bytes widened to words, PSHUFB by X9 (all
// zeros) spreads it to every byte, PCMPEQB and PMOVMSKB make the mask
// (SSE4.1 and SSSE3: genStepAsm asks for them).
#define MINDEG \
	MOVQ genLane_v(R13), X0; \
	PMOVZXBW X0, X1; \
	PHMINPOSUW X1, X1; \
	PSHUFB X9, X1; \
	PCMPEQB X0, X1; \
	PMOVMSKB X1, R8; \
	ANDL $0xff, R8

// MOVE_PUSH: the move of offset BX taken: the lane's cur moved by it (BX
// the new square), the square appended to its path.
#define MOVE_PUSH \
	ADDQ genLane_cur(R13), BX; \
	MOVQ BX, genLane_cur(R13); \
	MOVQ genLane_plen(R13), CX; \
	MOVQ genLane_path(R13), DX; \
	MOVL BX, (DX)(CX*4); \
	INCQ CX; \
	MOVQ CX, genLane_plen(R13)

// DRAW: from R8 = moves, the drawn move's square into BX, the lane's cur,
// draw buffer and path updated (drawSel and push). The buffer's next
// output x is read on every step and taken on a tie, two moves or more
// (rd += 1 by SBB on count < 2: the lane's ties are ties + rd, each tie
// one draw); with one move the index x*1>>32 is 0 whatever x is. Lemire's
// check, low 32 bits of x*count below count, is rare: out of line
// (lemire, in REFILL), a rejection only on a tie. An exhausted buffer is
// filled first (refill, REFILL), whether the step draws or not.
#define DRAW \
	MOVQ genLane_rd(R13), AX; \
	CMPQ AX, $const_genDrawRows; \
	JEQ refill; \
drawn: \
	POPCNTL R8, CX; \
	MOVQ genLane_dr(R13), BX; \
	MOVL (BX)(AX*8), BX; \
	IMULQ CX, BX; \
	CMPL BX, CX; \
	JCS lemire; \
kept: \
	CMPL CX, $2; \
	SBBQ $-1, AX; \
	MOVQ AX, genLane_rd(R13); \
	SHRQ $32, BX; \
	LEAQ (BX)(R8*8), BX; \
	MOVLQSX genTables_selOff(R12)(BX*4), BX; \
	MOVE_PUSH

// REFILL: the lane's stream is taken genDrawRows steps on (all its buffer
// drawn: (hi, lo)·M^R + I_R by the tables' jR), the buffer filled from
// there, its draws counted in ties and rd set to 0; back to drawn. R8 is
// kept; AX BX CX DX R9 and the Z registers are scratch. Also DRAW's
// lemire: a tie hands the lane back (redraw), one move goes on (kept).
#define REFILL \
refill: \
	MOVQ genLane_lo(R13), AX; \
	MULQ genTables_jR+8(R12); \
	MOVQ genLane_hi(R13), BX; \
	IMULQ genTables_jR+8(R12), BX; \
	ADDQ BX, DX; \
	MOVQ genLane_lo(R13), BX; \
	IMULQ genTables_jR+0(R12), BX; \
	ADDQ BX, DX; \
	ADDQ genTables_jR+24(R12), AX; \
	ADCQ genTables_jR+16(R12), DX; \
	MOVQ AX, genLane_lo(R13); \
	MOVQ DX, genLane_hi(R13); \
	FILL; \
	ADDQ $const_genDrawRows, genLane_ties(R13); \
	XORL AX, AX; \
	MOVQ AX, genLane_rd(R13); \
	JMP drawn; \
lemire: \
	CMPL CX, $2; \
	JCC redraw; \
	JMP kept

// FILL: the buffer at the lane's dr from its (hi, lo): row k the output
// of the stream's step k+1 on (pcgStep's), by AVX-512 (FILLVEC) where the
// tables say so, else one row at a time (FILLSCALAR).
#define FILL \
	CMPB genTables_fillVec(R12), $0; \
	JEQ fills; \
	FILLVEC; \
	JMP filled; \
fills: \
	FILLSCALAR; \
filled:

// FILLSCALAR: pcgStep written out, (hi, lo) in (R9, BX), CX the row.
#define FILLSCALAR \
	MOVQ genLane_hi(R13), R9; \
	MOVQ genLane_lo(R13), BX; \
	MOVQ genLane_dr(R13), CX; \
fillsrow: \
	MOVQ BX, AX; \
	MULQ genTables_jt+64(R12); \
	IMULQ genTables_jt+64(R12), R9; \
	ADDQ R9, DX; \
	MOVQ BX, R9; \
	IMULQ genTables_jt+0(R12), R9; \
	ADDQ R9, DX; \
	ADDQ genTables_jt+192(R12), AX; \
	ADCQ genTables_jt+128(R12), DX; \
	MOVQ AX, BX; \
	MOVQ DX, R9; \
	MOVQ DX, AX; \
	SHRQ $32, AX; \
	XORQ DX, AX; \
	IMULQ genTables_dxsm(R12), AX; \
	MOVQ AX, DX; \
	SHRQ $48, DX; \
	XORQ DX, AX; \
	MOVQ BX, DX; \
	ORQ $1, DX; \
	IMULQ DX, AX; \
	MOVQ AX, (CX); \
	ADDQ $8, CX; \
	MOVQ genLane_dr(R13), DX; \
	ADDQ $(8*const_genDrawRows), DX; \
	CMPQ CX, DX; \
	JNE fillsrow

// MUL128(H, L, MH, ML, ML1, IH, IL): (Z0, Z1) = (H, L)·(MH, ML) + (IH, IL)
// mod 2^128, eight states at a time (ML1 = ML>>32; Z20 the low-32-bit
// mask, Z21 ones); Z4 to Z8 scratch; H may be Z0 and L Z1. The high word
// of L·ML is put together from 32-bit products (VPMULUDQ; Warren,
// Hacker's Delight, 2nd ed., 8-2, mulhu), the carry out of the low word
// by an unsigned compare.
#define MUL128(H, L, MH, ML, ML1, IH, IL) \
	VPSRLQ $32, L, Z4; \
	VPMULUDQ ML, L, Z5; \
	VPMULUDQ ML1, L, Z6; \
	VPMULUDQ ML, Z4, Z7; \
	VPMULUDQ ML1, Z4, Z8; \
	VPSRLQ $32, Z5, Z5; \
	VPADDQ Z7, Z5, Z5; \
	VPANDQ Z20, Z5, Z7; \
	VPSRLQ $32, Z5, Z5; \
	VPADDQ Z6, Z7, Z7; \
	VPSRLQ $32, Z7, Z7; \
	VPADDQ Z5, Z8, Z8; \
	VPADDQ Z7, Z8, Z8; \
	VPMULLQ MH, L, Z6; \
	VPMULLQ ML, H, Z7; \
	VPADDQ Z6, Z8, Z8; \
	VPADDQ Z7, Z8, Z8; \
	VPADDQ IH, Z8, Z0; \
	VPMULLQ ML, L, Z5; \
	VPADDQ IL, Z5, Z1; \
	VPCMPUQ $1, IL, Z1, K1; \
	VPADDQ Z21, Z0, K1, Z0

// FILLVEC: eight rows a round, each row's state the lane's (hi, lo) by
// the row's jump (the tables' jt: no round waits for another), each row's
// output pcgStep's: x = hi ^ hi>>32, x *= dxsm, x ^= x>>48, x *= lo|1.
#define FILLVEC \
	VPBROADCASTQ genTables_mask32(R12), Z20; \
	VPBROADCASTQ genTables_one(R12), Z21; \
	VPBROADCASTQ genTables_dxsm(R12), Z22; \
	VPBROADCASTQ genLane_hi(R13), Z2; \
	VPBROADCASTQ genLane_lo(R13), Z3; \
	MOVQ genLane_dr(R13), DX; \
	LEAQ genTables_jt(R12), AX; \
	MOVQ $(const_genDrawRows/8), CX; \
fillvrow: \
	VMOVDQU64 0(AX), Z10; \
	VMOVDQU64 64(AX), Z11; \
	VPSRLQ $32, Z11, Z14; \
	VMOVDQU64 128(AX), Z12; \
	VMOVDQU64 192(AX), Z13; \
	MUL128(Z2, Z3, Z10, Z11, Z14, Z12, Z13); \
	VPSRLQ $32, Z0, Z4; \
	VPXORQ Z0, Z4, Z4; \
	VPMULLQ Z22, Z4, Z4; \
	VPSRLQ $48, Z4, Z5; \
	VPXORQ Z5, Z4, Z4; \
	VPORQ Z21, Z1, Z5; \
	VPMULLQ Z5, Z4, Z4; \
	VMOVDQU64 Z4, (DX); \
	ADDQ $64, DX; \
	ADDQ $256, AX; \
	DECQ CX; \
	JNE fillvrow; \
	VZEROUPPER

// NEXT: the next lane; a round of the lanes counts against the budget.
#define NEXT \
	ADDQ $genLane__size, R13; \
	CMPQ R13, n+8(FP); \
	JCS loop; \
	MOVQ ls+0(FP), R13; \
	DECQ budget+32(FP); \
	JNE loop; \
	JMP spent

// VISIT_DEGREES: visitWords with degrees for q in BX: mark q, one
// subtraction a word, the gathered bytes into the lane's v.
#define VISIT_DEGREES \
	MOVQ genLane_st(R13), DX; \
	ADDQ BX, DX; \
	ORB $0x80, (DX); \
	MOVQ $0x0000000100000001, R9; \
	MOVQ $0xff000000ff, R8; \
	MOVL -1(DX)(DI*2), AX; \
	SUBL $0x00010001, AX; \
	MOVL AX, -1(DX)(DI*2); \
	ANDL $0x00ff00ff, AX; \
	MOVQ -2(DX)(DI*1), BX; \
	SUBQ R9, BX; \
	MOVQ BX, -2(DX)(DI*1); \
	ANDQ R8, BX; \
	SHLQ $8, BX; \
	ORQ BX, AX; \
	MOVQ -2(DX)(SI*1), BX; \
	SUBQ R9, BX; \
	MOVQ BX, -2(DX)(SI*1); \
	ANDQ R8, BX; \
	SHLQ $24, BX; \
	ORQ BX, AX; \
	MOVL -1(DX)(SI*2), BX; \
	SUBL $0x00010001, BX; \
	MOVL BX, -1(DX)(SI*2); \
	ANDL $0x00ff00ff, BX; \
	SHLQ $32, BX; \
	ORQ BX, AX; \
	MOVQ AX, genLane_v(R13)

#define SETUP \
	MOVQ ls+0(FP), R13; \
	MOVQ n+8(FP), AX; \
	IMUL3Q $genLane__size, AX, AX; \
	ADDQ R13, AX; \
	MOVQ AX, n+8(FP); \
	MOVQ t+16(FP), R12; \
	MOVQ genTables_npc(R12), DI; \
	MOVQ genTables_ppc(R12), SI; \
	MOVQ $0x8080808080808080, R10; \
	MOVQ $0x0002040810204081, R11; \
	PXOR X9, X9

#define RETURNS \
ended: \
	MOVQ $0, CX; \
	JMP ret; \
redraw: \
	MOVQ $2, CX; \
	JMP ret; \
spent: \
	MOVQ $3, CX; \
ret: \
	SUBQ ls+0(FP), R13; \
	MOVQ R13, off+40(FP); \
	MOVQ CX, reason+48(FP); \
	RET

// func genLanesRandom(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)
TEXT ·genLanesRandom(SB), NOSPLIT, $0-56
	SETUP
loop:
	MOVES
	MOVQ AX, R8
	DRAW
	// visitWords without degrees: mark q, gather the four words.
	MOVQ genLane_st(R13), DX
	ADDQ BX, DX
	ORB $0x80, (DX)
	MOVL -1(DX)(DI*2), AX
	ANDL $0x00ff00ff, AX
	MOVQ $0xff000000ff, R8
	MOVQ -2(DX)(DI*1), BX
	ANDQ R8, BX
	SHLQ $8, BX
	ORQ BX, AX
	MOVQ -2(DX)(SI*1), BX
	ANDQ R8, BX
	SHLQ $24, BX
	ORQ BX, AX
	MOVL -1(DX)(SI*2), BX
	ANDL $0x00ff00ff, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, genLane_v(R13)
	NEXT
	RETURNS
	REFILL

// func genLanesWarnsdorff(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)
TEXT ·genLanesWarnsdorff(SB), NOSPLIT, $0-56
	SETUP
loop:
	MOVES
	MINDEG
	DRAW
	VISIT_DEGREES
	NEXT
	RETURNS
	REFILL

// func genLanesFirst(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)
//
// Warnsdorff with ties to the first move in the rule's order
// (runLanesFirst): no draw, the lane's table (first), and a hand-back on
// arriving at its stop square (squirrel-cull's switches).
TEXT ·genLanesFirst(SB), NOSPLIT, $0-56
	SETUP
loop:
	MOVES
	MINDEG
	LEAQ -1(R8), R9
	ANDQ R8, R9
	ADDQ $255, R9
	SHRQ $8, R9
	ADDQ R9, genLane_ties(R13)
	MOVQ genLane_first(R13), BX
	MOVLQSX (BX)(R8*4), BX
	MOVE_PUSH
	CMPQ BX, genLane_stop(R13)
	JEQ atstop
	VISIT_DEGREES
	NEXT
atstop:
	VISIT_DEGREES
	MOVQ $5, CX
	JMP ret
	RETURNS

// func genLanesTied(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)
//
// Warnsdorff with any other tie-break (runLanesTieBreak): a step with one
// move of least degree is taken here, a tie handed back to Go (reason 4:
// the lane at off is at a tie, its state as MOVES found it), whose tie
// step (tieStep) narrows it by the rule's chain. No draw, no tie counted.
TEXT ·genLanesTied(SB), NOSPLIT, $0-56
	SETUP
loop:
	MOVES
	MINDEG
	LEAQ -1(R8), R9
	TESTQ R8, R9
	JNZ tied
	SHLQ $5, R8
	MOVLQSX genTables_selOff(R12)(R8*1), BX
	MOVE_PUSH
	VISIT_DEGREES
	NEXT
tied:
	MOVQ $4, CX
	JMP ret
	RETURNS

// func genFillDraws(l *genLane, t *genTables)
TEXT ·genFillDraws(SB), NOSPLIT, $0-16
	MOVQ l+0(FP), R13
	MOVQ t+8(FP), R12
	FILL
	RET
