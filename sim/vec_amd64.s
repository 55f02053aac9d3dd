//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// The AVX-512 rounds of the batched bitboard kernel (batch.go says
// why and when they run). Each 512-bit register holds one field of eight
// lanes; the 16 lanes are two groups of eight, advanced one after the
// other in each iteration so that the core overlaps their chains.
//
// Registers kept for the whole call:
//   Z16..Z21  the numbers 1..6 in every lane (select compares)
//   Z22       0x00000000ffffffff
//   Z23       PCG mulLo >> 32
//   Z24       PCG mulLo (VPMULUDQ reads its low half)
//   Z25       PCG mulHi
//   Z26       PCG incLo
//   Z27       PCG incHi
//   Z28       the DXSM multiplier 0xda942042e4dd58b5
//   Z29       maxSteps
//   Z30       all ones (-1)
//   DI, R8    lanes 0..7 and 8..15 (the lanes struct, and 64 bytes on)
//   SI        &nbRev, DX rounds left, AX scratch

// MOVE(B, endl): load group B's lanes, move each into its chosen square and
// find its unvisited neighbours (Z4); with any lane at its walk's end, jump
// to endl with the ended lanes in K2.
//   Z0 chosen square, Z1 visited (after the move), Z3 the square's
//   neighbours, Z4 the allowed squares.
#define MOVE(B, endl) \
	VMOVDQU64 lanes_set(B), Z0; \
	VPORQ     lanes_visited(B), Z0, Z1; \
	VPLZCNTQ  Z0, Z2; \
	KXNORB    K1, K1, K1; \
	VPXORQ    Z3, Z3, Z3; \
	VPGATHERQQ (SI)(Z2*8), K1, Z3; \
	VPANDNQ   Z3, Z1, Z4; \
	VPTESTNMQ Z4, Z4, K2; \
	VPOPCNTQ  Z1, Z5; \
	VPCMPUQ   $6, Z29, Z5, K3; \
	KORB      K2, K3, K2; \
	KORTESTB  K2, K2; \
	JNZ       endl

// DEGREES(B): Warnsdorff. The move takes one unvisited neighbour from
// each of the square's neighbours (a bit-sliced decrement of the degree
// planes, new planes in Z9..Z12), then the allowed squares keep only those
// of minimum degree.
#define DEGREES(B) \
	VMOVDQU64 (lanes_planes+0*8*const_batchLanes)(B), Z5; \
	VMOVDQU64 (lanes_planes+1*8*const_batchLanes)(B), Z6; \
	VMOVDQU64 (lanes_planes+2*8*const_batchLanes)(B), Z7; \
	VMOVDQU64 (lanes_planes+3*8*const_batchLanes)(B), Z8; \
	VPXORQ    Z3, Z5, Z9; \
	VPANDNQ   Z3, Z5, Z3; \
	VPXORQ    Z3, Z6, Z10; \
	VPANDNQ   Z3, Z6, Z3; \
	VPXORQ    Z3, Z7, Z11; \
	VPANDNQ   Z3, Z7, Z3; \
	VPXORQ    Z3, Z8, Z12; \
	VPANDNQ   Z4, Z12, Z13; \
	VPTESTMQ  Z13, Z13, K1; \
	VMOVDQA64 Z13, K1, Z4; \
	VPANDNQ   Z4, Z11, Z13; \
	VPTESTMQ  Z13, Z13, K1; \
	VMOVDQA64 Z13, K1, Z4; \
	VPANDNQ   Z4, Z10, Z13; \
	VPTESTMQ  Z13, Z13, K1; \
	VMOVDQA64 Z13, K1, Z4; \
	VPANDNQ   Z4, Z9, Z13; \
	VPTESTMQ  Z13, Z13, K1; \
	VMOVDQA64 Z13, K1, Z4

// DROPLOWEST clears the lowest allowed square (Z4) of the lanes in K1.
#define DROPLOWEST \
	VPADDQ    Z30, Z4, Z2; \
	VPANDQ    Z2, Z4, K1, Z4

// CHOOSE(B, retryl): count a tie for the lanes with more than one allowed
// square (K4), draw for them the index of the chosen square from their
// streams exactly as uniform does (a rare rejection jumps to retryl), and
// turn every lane's allowed squares into the chosen one (Z4).
//   Z5/Z6 the streams (hi/lo) after the draw, Z14 the ties.
#define CHOOSE(B, retryl) \
	VPADDQ    Z30, Z4, Z13; \
	VPTESTMQ  Z13, Z4, K4; \
	VMOVDQU64 lanes_ties(B), Z14; \
	VPSUBQ    Z30, Z14, K4, Z14; \
	VMOVDQU64 lanes_hi(B), Z5; \
	VMOVDQU64 lanes_lo(B), Z6; \
	/* high half of lo*mulLo from 32-bit products */ \
	VPSRLQ    $32, Z6, Z7; \
	VPMULUDQ  Z24, Z6, Z8; \
	VPMULUDQ  Z23, Z6, Z13; \
	VPMULUDQ  Z24, Z7, Z15; \
	VPMULUDQ  Z23, Z7, Z7; \
	VPSRLQ    $32, Z8, Z8; \
	VPANDQ    Z22, Z13, Z2; \
	VPADDQ    Z2, Z8, Z8; \
	VPANDQ    Z22, Z15, Z2; \
	VPADDQ    Z2, Z8, Z8; \
	VPSRLQ    $32, Z8, Z8; \
	VPSRLQ    $32, Z13, Z13; \
	VPSRLQ    $32, Z15, Z15; \
	VPADDQ    Z13, Z7, Z7; \
	VPADDQ    Z15, Z7, Z7; \
	VPADDQ    Z8, Z7, Z7; \
	/* h = that + hi*mulLo + lo*mulHi + incHi + carry; l = lo*mulLo + incLo */ \
	VPMULLQ   Z24, Z5, Z8; \
	VPADDQ    Z8, Z7, Z7; \
	VPMULLQ   Z25, Z6, Z8; \
	VPADDQ    Z8, Z7, Z7; \
	VPMULLQ   Z24, Z6, Z8; \
	VPADDQ    Z26, Z8, Z8; \
	VPCMPUQ   $1, Z26, Z8, K5; \
	VPADDQ    Z27, Z7, Z7; \
	VPSUBQ    Z30, Z7, K5, Z7; \
	VMOVDQA64 Z7, K4, Z5; \
	VMOVDQA64 Z8, K4, Z6; \
	/* the output's low half: DXSM, times l|1 */ \
	VPSRLQ    $32, Z7, Z13; \
	VPXORQ    Z13, Z7, Z13; \
	VPMULLQ   Z28, Z13, Z13; \
	VPSRLQ    $48, Z13, Z15; \
	VPXORQ    Z15, Z13, Z13; \
	VPORQ     Z16, Z8, Z15; \
	VPMULUDQ  Z15, Z13, Z13; \
	/* Lemire: prod = x32 * m; reject when its low half < m */ \
	VPOPCNTQ  Z4, Z15; \
	VPMULUDQ  Z15, Z13, Z13; \
	VPANDQ    Z22, Z13, Z2; \
	VPCMPUQ   $1, Z15, Z2, K4, K5; \
	KORTESTB  K5, K5; \
	JNZ       retryl; \
	VPSRLQ    $32, Z13, Z13; \
	/* select: drop the lowest allowed square while idx > r, r = 0..6 */ \
	VPTESTMQ  Z13, Z13, K1; \
	DROPLOWEST; \
	VPCMPUQ   $6, Z16, Z13, K1; \
	DROPLOWEST; \
	VPCMPUQ   $6, Z17, Z13, K1; \
	DROPLOWEST; \
	VPCMPUQ   $6, Z18, Z13, K1; \
	DROPLOWEST; \
	VPCMPUQ   $6, Z19, Z13, K1; \
	DROPLOWEST; \
	VPCMPUQ   $6, Z20, Z13, K1; \
	DROPLOWEST; \
	VPCMPUQ   $6, Z21, Z13, K1; \
	DROPLOWEST; \
	/* the lowest one left is the chosen square */ \
	VPADDQ    Z30, Z4, Z2; \
	VPANDNQ   Z4, Z2, Z4

// STORE(B): write group B's lanes back.
#define STORE(B) \
	VMOVDQU64 Z4, lanes_set(B); \
	VMOVDQU64 Z1, lanes_visited(B); \
	VMOVDQU64 Z14, lanes_ties(B); \
	VMOVDQU64 Z5, lanes_hi(B); \
	VMOVDQU64 Z6, lanes_lo(B)

#define STOREPLANES(B) \
	VMOVDQU64 Z9, (lanes_planes+0*8*const_batchLanes)(B); \
	VMOVDQU64 Z10, (lanes_planes+1*8*const_batchLanes)(B); \
	VMOVDQU64 Z11, (lanes_planes+2*8*const_batchLanes)(B); \
	VMOVDQU64 Z12, (lanes_planes+3*8*const_batchLanes)(B)

#define SETUP \
	MOVQ ls+0(FP), DI; \
	LEAQ 64(DI), R8; \
	MOVQ nbRev+8(FP), SI; \
	MOVQ rounds+24(FP), DX; \
	MOVQ $1, AX; VPBROADCASTQ AX, Z16; \
	MOVQ $2, AX; VPBROADCASTQ AX, Z17; \
	MOVQ $3, AX; VPBROADCASTQ AX, Z18; \
	MOVQ $4, AX; VPBROADCASTQ AX, Z19; \
	MOVQ $5, AX; VPBROADCASTQ AX, Z20; \
	MOVQ $6, AX; VPBROADCASTQ AX, Z21; \
	MOVQ $0xffffffff, AX; VPBROADCASTQ AX, Z22; \
	MOVQ $0x4385df64, AX; VPBROADCASTQ AX, Z23; \
	MOVQ $4865540595714422341, AX; VPBROADCASTQ AX, Z24; \
	MOVQ $2549297995355413924, AX; VPBROADCASTQ AX, Z25; \
	MOVQ $1442695040888963407, AX; VPBROADCASTQ AX, Z26; \
	MOVQ $6364136223846793005, AX; VPBROADCASTQ AX, Z27; \
	MOVQ $0xda942042e4dd58b5, AX; VPBROADCASTQ AX, Z28; \
	MOVQ maxSteps+16(FP), AX; VPBROADCASTQ AX, Z29; \
	VPTERNLOGQ $0xff, Z30, Z30, Z30

// Exits: end0/end1 report group 0's or 1's ended lanes (bits 0..7 or
// 8..15 of the result), retry0/retry1 a rejected draw (bit 16), done the
// rounds used up (0). Nothing of the round that exits is stored.
#define EXITS \
end0: \
	KMOVB K2, AX; \
	JMP  ret; \
end1: \
	KMOVB K2, AX; \
	SHLQ $8, AX; \
	JMP  ret; \
retry0: \
retry1: \
	MOVQ $0x10000, AX; \
	JMP  ret; \
done: \
	XORQ AX, AX; \
ret: \
	VZEROUPPER; \
	MOVQ AX, ret+32(FP); \
	RET

// func vecWarnsdorff(ls *lanes, nbRev *[64]uint64, maxSteps uint64, rounds int) uint64
TEXT ·vecWarnsdorff(SB), NOSPLIT, $0-40
	SETUP
loop:
	TESTQ DX, DX
	JZ    done
	DECQ  DX
	MOVE(DI, end0)
	DEGREES(DI)
	CHOOSE(DI, retry0)
	STORE(DI)
	STOREPLANES(DI)
	MOVE(R8, end1)
	DEGREES(R8)
	CHOOSE(R8, retry1)
	STORE(R8)
	STOREPLANES(R8)
	JMP   loop
	EXITS

// func vecRandom(ls *lanes, nbRev *[64]uint64, maxSteps uint64, rounds int) uint64
TEXT ·vecRandom(SB), NOSPLIT, $0-40
	SETUP
loop:
	TESTQ DX, DX
	JZ    done
	DECQ  DX
	MOVE(DI, end0)
	CHOOSE(DI, retry0)
	STORE(DI)
	MOVE(R8, end1)
	CHOOSE(R8, retry1)
	STORE(R8)
	JMP   loop
	EXITS

// func xgetbv0() uint32
TEXT ·xgetbv0(SB), NOSPLIT, $0-4
	XORL   CX, CX
	XGETBV
	MOVL   AX, ret+0(FP)
	RET
