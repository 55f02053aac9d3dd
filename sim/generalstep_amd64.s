//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// The general kernel's step loops (generalbatch.go) for the random walk,
// Warnsdorff with random ties and with ties to the first move, written out: the lanes' fields stay in
// memory (genLane), the loop's constants in registers. A step is exactly
// runLanesRandom's or runLanesWarnsdorff's: the same masks, the same draw,
// the same words. What the loop hands back to Go (reason):
//   0  the lane at off has ended its walk (no move);
//   1  the lane's path reached plim: Go stops the walk (maxSteps passed)
//      or grows the path and calls again;
//   2  the lane must draw again (Lemire's rejection on a tie: Go steps it);
//   3  budget rounds of the lanes were taken (so that a call is short: Go
//      calls again).
//
// Registers: DI the first lane, SI past the last, R13 the lane, R12 the
// tables, R10 and R11 msbs's mask and multiplier, R14 genPopcount (an ABI0
// function may use R14: the wrapper restores g); AX BX CX DX R8 R9 scratch.

// MOVES: AX = msbs(^v) of the lane; ends the walk (ended) on no move, hands
// back (limit) where the path reaches the lane's plim: full, or past
// maxSteps.
#define MOVES \
	MOVQ genLane_v(R13), AX; \
	NOTQ AX; \
	ANDQ R10, AX; \
	IMULQ R11, AX; \
	SHRQ $56, AX; \
	JZ ended; \
	MOVQ genLane_plen(R13), BX; \
	CMPQ BX, genLane_plim(R13); \
	JCC limit

// KEEPLOW(s): keepLow(R8, msbs(v<<s)) into R8.
#define KEEPLOW(s) \
	MOVQ genLane_v(R13), CX; \
	SHLQ $s, CX; \
	ANDQ R10, CX; \
	IMULQ R11, CX; \
	SHRQ $56, CX; \
	NOTQ CX; \
	ANDQ R8, CX; \
	CMOVQEQ R8, CX; \
	MOVQ CX, R8

// DRAW: from R8 = moves, the drawn move's square into BX, the lane's cur,
// stream, ties and path updated (drawSel and push): R9 is the tie mask
// (all ones for two moves or more), the new state is kept on a tie by
// conditional moves.
#define DRAW \
	MOVBLZX (R14)(R8*1), CX; \
	CMPL CX, $2; \
	SBBQ R9, R9; \
	NOTQ R9; \
	MOVQ genLane_lo(R13), AX; \
	MOVQ $4865540595714422341, CX; \
	MULQ CX; \
	MOVQ genLane_hi(R13), BX; \
	IMULQ CX, BX; \
	ADDQ BX, DX; \
	MOVQ genLane_lo(R13), BX; \
	MOVQ $2549297995355413924, CX; \
	IMULQ CX, BX; \
	ADDQ BX, DX; \
	MOVQ $1442695040888963407, CX; \
	ADDQ CX, AX; \
	MOVQ $6364136223846793005, CX; \
	ADCQ CX, DX; \
	MOVQ DX, BX; \
	SHRQ $32, BX; \
	XORQ DX, BX; \
	MOVQ $0xda942042e4dd58b5, CX; \
	IMULQ CX, BX; \
	MOVQ BX, CX; \
	SHRQ $48, CX; \
	XORQ CX, BX; \
	MOVQ AX, CX; \
	ORQ $1, CX; \
	IMULQ CX, BX; \
	MOVL BX, BX; \
	MOVBLZX (R14)(R8*1), CX; \
	IMULQ CX, BX; \
	CMPL BX, CX; \
	JCC 3(PC); \
	TESTQ R9, R9; \
	JNE redraw; \
	TESTQ R9, R9; \
	CMOVQEQ genLane_hi(R13), DX; \
	CMOVQEQ genLane_lo(R13), AX; \
	MOVQ DX, genLane_hi(R13); \
	MOVQ AX, genLane_lo(R13); \
	SUBQ R9, genLane_ties(R13); \
	SHRQ $32, BX; \
	LEAQ (BX)(R8*8), BX; \
	MOVLQSX genTables_selOff(R12)(BX*4), BX; \
	ADDQ genLane_cur(R13), BX; \
	MOVQ BX, genLane_cur(R13); \
	MOVQ genLane_plen(R13), CX; \
	MOVQ genLane_path(R13), DX; \
	MOVL BX, (DX)(CX*4); \
	INCQ CX; \
	MOVQ CX, genLane_plen(R13)

// NEXT: the next lane; a round of the lanes counts against the budget.
#define NEXT \
	ADDQ $genLane__size, R13; \
	CMPQ R13, SI; \
	JCS loop; \
	MOVQ DI, R13; \
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
	MOVQ genTables_oA(R12), CX; \
	MOVL (DX)(CX*1), AX; \
	SUBL $0x00010001, AX; \
	MOVL AX, (DX)(CX*1); \
	ANDL $0x00ff00ff, AX; \
	MOVQ genTables_oB(R12), CX; \
	MOVQ (DX)(CX*1), BX; \
	SUBQ R9, BX; \
	MOVQ BX, (DX)(CX*1); \
	ANDQ R8, BX; \
	SHLQ $8, BX; \
	ORQ BX, AX; \
	MOVQ genTables_oC(R12), CX; \
	MOVQ (DX)(CX*1), BX; \
	SUBQ R9, BX; \
	MOVQ BX, (DX)(CX*1); \
	ANDQ R8, BX; \
	SHLQ $24, BX; \
	ORQ BX, AX; \
	MOVQ genTables_oD(R12), CX; \
	MOVL (DX)(CX*1), BX; \
	SUBL $0x00010001, BX; \
	MOVL BX, (DX)(CX*1); \
	ANDL $0x00ff00ff, BX; \
	SHLQ $32, BX; \
	ORQ BX, AX; \
	MOVQ AX, genLane_v(R13)

#define SETUP \
	MOVQ ls+0(FP), DI; \
	MOVQ n+8(FP), SI; \
	IMUL3Q $genLane__size, SI, SI; \
	ADDQ DI, SI; \
	MOVQ t+16(FP), R12; \
	MOVQ $0x8080808080808080, R10; \
	MOVQ $0x0002040810204081, R11; \
	LEAQ ·genPopcount(SB), R14; \
	MOVQ DI, R13

#define RETURNS \
ended: \
	MOVQ $0, CX; \
	JMP ret; \
limit: \
	MOVQ $1, CX; \
	JMP ret; \
redraw: \
	MOVQ $2, CX; \
	JMP ret; \
spent: \
	MOVQ $3, CX; \
ret: \
	SUBQ DI, R13; \
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
	MOVQ genTables_oA(R12), CX
	MOVL (DX)(CX*1), AX
	ANDL $0x00ff00ff, AX
	MOVQ $0xff000000ff, R8
	MOVQ genTables_oB(R12), CX
	MOVQ (DX)(CX*1), BX
	ANDQ R8, BX
	SHLQ $8, BX
	ORQ BX, AX
	MOVQ genTables_oC(R12), CX
	MOVQ (DX)(CX*1), BX
	ANDQ R8, BX
	SHLQ $24, BX
	ORQ BX, AX
	MOVQ genTables_oD(R12), CX
	MOVL (DX)(CX*1), BX
	ANDL $0x00ff00ff, BX
	SHLQ $32, BX
	ORQ BX, AX
	MOVQ AX, genLane_v(R13)
	NEXT
	RETURNS

// func genLanesWarnsdorff(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)
TEXT ·genLanesWarnsdorff(SB), NOSPLIT, $0-56
	SETUP
loop:
	MOVES
	MOVQ AX, R8
	KEEPLOW(5)
	KEEPLOW(6)
	KEEPLOW(7)
	DRAW
	VISIT_DEGREES
	NEXT
	RETURNS

// func genLanesFirst(ls *genLane, n int, t *genTables, maxSteps, budget int) (off, reason int)
//
// Warnsdorff with ties to the first move in the rule's order
// (runLanesFirst): no draw, the tables' firstOff.
TEXT ·genLanesFirst(SB), NOSPLIT, $0-56
	SETUP
loop:
	MOVES
	MOVQ AX, R8
	KEEPLOW(5)
	KEEPLOW(6)
	KEEPLOW(7)
	LEAQ -1(R8), R9
	ANDQ R8, R9
	ADDQ $255, R9
	SHRQ $8, R9
	ADDQ R9, genLane_ties(R13)
	MOVLQSX genTables_firstOff(R12)(R8*4), BX
	ADDQ genLane_cur(R13), BX
	MOVQ BX, genLane_cur(R13)
	MOVQ genLane_plen(R13), CX
	MOVQ genLane_path(R13), DX
	MOVL BX, (DX)(CX*4)
	INCQ CX
	MOVQ CX, genLane_plen(R13)
	VISIT_DEGREES
	NEXT
	RETURNS
