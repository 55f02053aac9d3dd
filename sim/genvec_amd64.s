//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// genVecRandomLoop: the random walk's wide kernel (genvec.go), sixteen
// walks a round, one a 32-bit element. A round is, for each lane in flight
// (K1), exactly a step of runLanesRandom: the count of moves, the draw
// from the lane's buffer (taken on a tie), Lemire's multiply-and-shift,
// the r-th move in ascending order, the square pushed to the path and
// marked visited, its neighbours' state bytes gathered into the next
// moves.
//
// GPRs: AX BX CX DX SI DI the slab plus the words' offsets (pA pB0 pB4
// pC0 pC4 pD), R8 the slab, R9 the draw buffers, R10 zero (the path
// scatter's base: its indices are addresses), R11 scratch, R12 the rounds
// left, R13 the state.
// Z0 g, Z1 m, Z2 rd, Z3 Z4 pp (lanes 0-7, 8-15), Z5 rend, Z6 offs,
// Z7 selLo, Z8 selHi, Z9 15, Z10 2, Z11 1, Z12 0x80, Z13 4 (quadwords),
// Z14 base, Z16-Z23 scratch, Z24-Z31 the mask's constants. K1 the lanes
// in flight, K7 the odd elements, K2-K6 scratch.

// GATHER: dst's lanes in flight (K1) the 32-bit words at base + g.
#define GATHER(base, dst) \
	KMOVW K1, K2; \
	VPGATHERDD (base)(Z0*1), K2, dst

#define BCASTD(c, z) \
	MOVL $c, R11; \
	VPBROADCASTD R11, z

// func genVecRandomLoop(s *genVecState, budget int) (lane, reason int)
TEXT ·genVecRandomLoop(SB), NOSPLIT, $0-32
	MOVQ s+0(FP), R13
	MOVQ budget+8(FP), R12
	MOVQ genVecState_pA(R13), AX
	MOVQ genVecState_pB0(R13), BX
	MOVQ genVecState_pB4(R13), CX
	MOVQ genVecState_pC0(R13), DX
	MOVQ genVecState_pC4(R13), SI
	MOVQ genVecState_pD(R13), DI
	MOVQ genVecState_pS(R13), R8
	MOVQ genVecState_pDr(R13), R9
	XORL R10, R10
	VMOVDQU32 genVecState_g(R13), Z0
	VMOVDQU32 genVecState_m(R13), Z1
	VMOVDQU32 genVecState_rd(R13), Z2
	VMOVDQU64 genVecState_pp(R13), Z3
	VMOVDQU64 genVecState_pp+64(R13), Z4
	VMOVDQU32 genVecState_rend(R13), Z5
	VMOVDQU32 genVecState_offs(R13), Z6
	VMOVDQU32 genVecState_selLo(R13), Z7
	VMOVDQU32 genVecState_selHi(R13), Z8
	VMOVDQU32 genVecState_base(R13), Z14
	KMOVW genVecState_act(R13), K1
	MOVL $0xaaaa, R11
	KMOVW R11, K7
	BCASTD(15, Z9)
	BCASTD(2, Z10)
	BCASTD(1, Z11)
	BCASTD(0x80, Z12)
	MOVQ $4, R11
	VPBROADCASTQ R11, Z13
	BCASTD(0x10001, Z24)
	BCASTD(0x400040, Z25)
	BCASTD(0xc3, Z26)
	BCASTD(4, Z27)
	BCASTD(8, Z28)
	BCASTD(16, Z29)
	BCASTD(32, Z30)
	BCASTD(0xff, Z31)

round:
	// A lane in flight without a move: its walk has ended.
	VPTESTMD Z1, Z1, K1, K2
	KXORW K1, K2, K3
	KORTESTW K3, K3
	JNE ended
	// A lane whose buffer is used up: Go refills it.
	VPCMPD $0, Z5, Z2, K1, K3
	KORTESTW K3, K3
	JNE refill
	TESTQ R12, R12
	JEQ spent
	DECQ R12

	// The draw: x the low half of the lane's next output, count the
	// moves, r = x*count >> 32; Lemire's check on the low half of the
	// product (a rejection on a tie goes to Go); the draw is taken (rd+1)
	// on a tie.
	KMOVW K1, K2
	VPGATHERDD (R9)(Z2*8), K2, Z16
	VPOPCNTD Z1, Z17
	VPMULUDQ Z17, Z16, Z18
	VPSRLQ $32, Z16, Z19
	VPSRLQ $32, Z17, Z20
	VPMULUDQ Z20, Z19, Z19
	VPSRLQ $32, Z18, Z20
	VMOVDQA32 Z19, K7, Z20
	VPSLLQ $32, Z19, Z19
	VMOVDQA32 Z19, K7, Z18
	VPCMPUD $5, Z10, Z17, K1, K4
	VPCMPUD $1, Z17, Z18, K4, K3
	KORTESTW K3, K3
	JNE redraw
	VPADDD Z11, Z2, K4, Z2

	// The r-th move of m in ascending order (Z20 = r): in the low nibble
	// if r is below its count, else the (r - that count)-th of the high
	// one; selLo and selHi give a nibble's moves, a byte each.
	VPANDD Z9, Z1, Z21
	VPSRLD $4, Z1, Z22
	VPOPCNTD Z21, Z23
	VPERMD Z7, Z21, Z21
	VPERMD Z8, Z22, Z22
	VPCMPUD $1, Z23, Z20, K5
	VPSUBD Z23, Z20, Z19
	VMOVDQA32 Z20, K5, Z19
	VMOVDQA32 Z21, K5, Z22
	VPSLLD $3, Z19, Z19
	VPSRLVD Z19, Z22, Z22
	VPERMD Z6, Z22, Z22
	VPADDD Z22, Z0, K1, Z0

	// The square pushed to the path (the padded square, g - base).
	VPSUBD Z14, Z0, Z23
	VEXTRACTI64X4 $1, Z23, Y22
	KMOVW K1, K2
	KSHIFTRW $8, K1, K3
	VPSCATTERQD Y23, K2, (R10)(Z3*1)
	VPSCATTERQD Y22, K3, (R10)(Z4*1)
	VPADDQ Z13, Z3, Z3
	VPADDQ Z13, Z4, Z4

	// The square marked visited: its 32-bit word, bit 7 set.
	GATHER(R8, Z16)
	VPORD Z12, Z16, Z16
	KMOVW K1, K2
	VPSCATTERDD Z16, K2, (R8)(Z0*1)

	// Its neighbours' state bytes: A (row-2: bytes 0 and 2, moves 0
	// and 1), B0 B4 (row-1: 2, 3), C0 C4 (row+1: 4, 5), D (row+2: bytes
	// 0 and 2, moves 6 and 7); each bit 7 a visited square.
	GATHER(AX, Z16)
	GATHER(BX, Z17)
	GATHER(CX, Z18)
	GATHER(DX, Z19)
	GATHER(SI, Z20)
	GATHER(DI, Z21)

	// The visited bits to bit i of move i: A's to 0 and 16, D's to 6
	// and 22, those at 16 and 22 then to 1 and 7; B0 B4 C0 C4 to 2 to 5.
	// m: the moves not visited.
	VPSRLD $7, Z16, Z16
	VPSRLD $1, Z21, Z21
	VPANDD Z24, Z16, Z16
	VPTERNLOGD $0xf8, Z25, Z21, Z16
	VPSRLD $15, Z16, Z22
	VPTERNLOGD $0xa8, Z26, Z22, Z16
	VPSRLD $5, Z17, Z17
	VPSRLD $4, Z18, Z18
	VPSRLD $3, Z19, Z19
	VPSRLD $2, Z20, Z20
	VPTERNLOGD $0xf8, Z27, Z17, Z16
	VPTERNLOGD $0xf8, Z28, Z18, Z16
	VPTERNLOGD $0xf8, Z29, Z19, Z16
	VPTERNLOGD $0xf8, Z30, Z20, Z16
	VPANDND Z31, Z16, Z1
	JMP round

ended:
	MOVQ $0, CX
	JMP ret
refill:
	MOVQ $1, CX
	JMP ret
redraw:
	MOVQ $2, CX
	JMP ret
spent:
	MOVQ $3, CX
	KXORW K3, K3, K3
ret:
	VMOVDQU32 Z0, genVecState_g(R13)
	VMOVDQU32 Z1, genVecState_m(R13)
	VMOVDQU32 Z2, genVecState_rd(R13)
	VMOVDQU64 Z3, genVecState_pp(R13)
	VMOVDQU64 Z4, genVecState_pp+64(R13)
	VZEROUPPER
	KMOVW K3, R11
	TZCNTL R11, R11
	MOVQ R11, lane+16(FP)
	MOVQ CX, reason+24(FP)
	RET
