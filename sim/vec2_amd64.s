//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// The AVX2 rounds of the batched bitboard kernel: the AVX-512 rounds'
// algorithm (vec_amd64.s; batch.go says why and when they run) on 256-bit
// registers, four lanes each, the 16 lanes as four groups advanced one
// after the other (a loop over the groups: R8 points at the group's first
// lane). What AVX2 lacks is built from what it has:
//   - opmasks: all-ones/zero lanes from VPCMPEQQ/VPCMPGTQ, VPBLENDVB to
//     merge, VMOVMSKPD to branch;
//   - VPOPCNTQ: nibble lookups (VPSHUFB) summed by VPSADBW;
//   - VPLZCNTQ (the square's index for the gather): the popcount of
//     square-1, so nb is indexed by square, not reversed;
//   - VPMULLQ: 64-bit products from three 32-bit ones (VPMULUDQ);
//   - unsigned compares (the PCG's carry): signed ones on values with the
//     top bit flipped.
// Constants live in vec2c (below), as memory operands: there are only 16
// YMM registers.
//
// Registers kept for the whole call:
//   Y14       zero
//   Y15       all ones (-1)
//   DI        the lanes struct, R9 = DI+128 (end of the groups)
//   R8        the current group (DI, DI+32, DI+64, DI+96)
//   SI        &nb, DX rounds left, AX and CX scratch
// During a round of one group, kept from one step to the next:
//   Y4        the allowed squares, then the chosen one
//   Y9..Y12   Warnsdorff: the degree planes after the move
//   Y13       lanes with more than one allowed square (a tie: a draw)
//   Y0, Y7    the stream (lo, hi) after the draw

#define c_nib vec2c<>+0(SB)
#define c_lut vec2c<>+32(SB)
#define c_mulLo vec2c<>+64(SB)
#define c_mulLoH vec2c<>+96(SB)
#define c_mulHi vec2c<>+128(SB)
#define c_mulHiH vec2c<>+160(SB)
#define c_incLo vec2c<>+192(SB)
#define c_incLoFlipM1 vec2c<>+224(SB)
#define c_sign vec2c<>+256(SB)
#define c_incHi1 vec2c<>+288(SB)
#define c_dxsm vec2c<>+320(SB)
#define c_dxsmH vec2c<>+352(SB)
#define c_one vec2c<>+384(SB)
#define c_two vec2c<>+416(SB)
#define c_three vec2c<>+448(SB)
#define c_four vec2c<>+480(SB)
#define c_five vec2c<>+512(SB)
#define c_six vec2c<>+544(SB)

DATA vec2c<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA vec2c<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA vec2c<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA vec2c<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA vec2c<>+32(SB)/8, $0x0302020102010100
DATA vec2c<>+40(SB)/8, $0x0403030203020201
DATA vec2c<>+48(SB)/8, $0x0302020102010100
DATA vec2c<>+56(SB)/8, $0x0403030203020201
DATA vec2c<>+64(SB)/8, $0x4385df649fccf645
DATA vec2c<>+72(SB)/8, $0x4385df649fccf645
DATA vec2c<>+80(SB)/8, $0x4385df649fccf645
DATA vec2c<>+88(SB)/8, $0x4385df649fccf645
DATA vec2c<>+96(SB)/8, $0x000000004385df64
DATA vec2c<>+104(SB)/8, $0x000000004385df64
DATA vec2c<>+112(SB)/8, $0x000000004385df64
DATA vec2c<>+120(SB)/8, $0x000000004385df64
DATA vec2c<>+128(SB)/8, $0x2360ed051fc65da4
DATA vec2c<>+136(SB)/8, $0x2360ed051fc65da4
DATA vec2c<>+144(SB)/8, $0x2360ed051fc65da4
DATA vec2c<>+152(SB)/8, $0x2360ed051fc65da4
DATA vec2c<>+160(SB)/8, $0x000000002360ed05
DATA vec2c<>+168(SB)/8, $0x000000002360ed05
DATA vec2c<>+176(SB)/8, $0x000000002360ed05
DATA vec2c<>+184(SB)/8, $0x000000002360ed05
DATA vec2c<>+192(SB)/8, $0x14057b7ef767814f
DATA vec2c<>+200(SB)/8, $0x14057b7ef767814f
DATA vec2c<>+208(SB)/8, $0x14057b7ef767814f
DATA vec2c<>+216(SB)/8, $0x14057b7ef767814f
DATA vec2c<>+224(SB)/8, $0x94057b7ef767814e
DATA vec2c<>+232(SB)/8, $0x94057b7ef767814e
DATA vec2c<>+240(SB)/8, $0x94057b7ef767814e
DATA vec2c<>+248(SB)/8, $0x94057b7ef767814e
DATA vec2c<>+256(SB)/8, $0x8000000000000000
DATA vec2c<>+264(SB)/8, $0x8000000000000000
DATA vec2c<>+272(SB)/8, $0x8000000000000000
DATA vec2c<>+280(SB)/8, $0x8000000000000000
DATA vec2c<>+288(SB)/8, $0x5851f42d4c957f2e
DATA vec2c<>+296(SB)/8, $0x5851f42d4c957f2e
DATA vec2c<>+304(SB)/8, $0x5851f42d4c957f2e
DATA vec2c<>+312(SB)/8, $0x5851f42d4c957f2e
DATA vec2c<>+320(SB)/8, $0xda942042e4dd58b5
DATA vec2c<>+328(SB)/8, $0xda942042e4dd58b5
DATA vec2c<>+336(SB)/8, $0xda942042e4dd58b5
DATA vec2c<>+344(SB)/8, $0xda942042e4dd58b5
DATA vec2c<>+352(SB)/8, $0x00000000da942042
DATA vec2c<>+360(SB)/8, $0x00000000da942042
DATA vec2c<>+368(SB)/8, $0x00000000da942042
DATA vec2c<>+376(SB)/8, $0x00000000da942042
DATA vec2c<>+384(SB)/8, $0x0000000000000001
DATA vec2c<>+392(SB)/8, $0x0000000000000001
DATA vec2c<>+400(SB)/8, $0x0000000000000001
DATA vec2c<>+408(SB)/8, $0x0000000000000001
DATA vec2c<>+416(SB)/8, $0x0000000000000002
DATA vec2c<>+424(SB)/8, $0x0000000000000002
DATA vec2c<>+432(SB)/8, $0x0000000000000002
DATA vec2c<>+440(SB)/8, $0x0000000000000002
DATA vec2c<>+448(SB)/8, $0x0000000000000003
DATA vec2c<>+456(SB)/8, $0x0000000000000003
DATA vec2c<>+464(SB)/8, $0x0000000000000003
DATA vec2c<>+472(SB)/8, $0x0000000000000003
DATA vec2c<>+480(SB)/8, $0x0000000000000004
DATA vec2c<>+488(SB)/8, $0x0000000000000004
DATA vec2c<>+496(SB)/8, $0x0000000000000004
DATA vec2c<>+504(SB)/8, $0x0000000000000004
DATA vec2c<>+512(SB)/8, $0x0000000000000005
DATA vec2c<>+520(SB)/8, $0x0000000000000005
DATA vec2c<>+528(SB)/8, $0x0000000000000005
DATA vec2c<>+536(SB)/8, $0x0000000000000005
DATA vec2c<>+544(SB)/8, $0x0000000000000006
DATA vec2c<>+552(SB)/8, $0x0000000000000006
DATA vec2c<>+560(SB)/8, $0x0000000000000006
DATA vec2c<>+568(SB)/8, $0x0000000000000006
GLOBL vec2c<>(SB), RODATA|NOPTR, $576

// POPCNT(x, t, lut): x = the number of set bits of each of x's lanes.
#define POPCNT(x, t, lut) \
	VMOVDQU  c_lut, lut; \
	VPAND    c_nib, x, t; \
	VPSRLQ   $4, x, x; \
	VPAND    c_nib, x, x; \
	VPSHUFB  t, lut, t; \
	VPSHUFB  x, lut, x; \
	VPADDB   t, x, x; \
	VPSADBW  Y14, x, x

// MOVE(B): move group B's lanes into their chosen squares and find the
// allowed squares (Y4), the chosen square's neighbours (Y3) and the lanes
// at their walk's end (Y5, all ones) without a step limit.
//   Y1 visited (after the move), Y2 the square's index.
#define MOVE(B) \
	VMOVDQU  lanes_set(B), Y0; \
	VPOR     lanes_visited(B), Y0, Y1; \
	VPADDQ   Y15, Y0, Y2; \
	POPCNT(Y2, Y3, Y5); \
	VPCMPEQQ Y5, Y5, Y5; \
	VPXOR    Y3, Y3, Y3; \
	VPGATHERQQ Y5, (SI)(Y2*8), Y3; \
	VPANDN   Y3, Y1, Y4; \
	VPCMPEQQ Y14, Y4, Y5

// LIMIT: also end the lanes that have visited more than maxSteps squares.
#define LIMIT \
	VMOVDQA  Y1, Y6; \
	POPCNT(Y6, Y7, Y8); \
	VPBROADCASTQ maxSteps+16(FP), Y7; \
	VPCMPGTQ Y7, Y6, Y6; \
	VPOR     Y6, Y5, Y5

// ENDCHECK(endl): with any lane at its walk's end, jump to endl with the
// group's ended lanes as bits 0..3 of AX.
#define ENDCHECK(endl) \
	VMOVMSKPD Y5, AX; \
	TESTL    AX, AX; \
	JNZ      endl

// MINPLANE(P): drop the allowed squares with a 1 in plane P unless that
// drops them all.
#define MINPLANE(P) \
	VPANDN   Y4, P, Y13; \
	VPCMPEQQ Y14, Y13, Y0; \
	VPBLENDVB Y0, Y4, Y13, Y4

// DEGREES(B): Warnsdorff. The move takes one unvisited neighbour from
// each of the square's neighbours (a bit-sliced decrement of the degree
// planes, new planes in Y9..Y12), then the allowed squares keep only those
// of minimum degree, from the top plane down.
#define DEGREES(B) \
	VMOVDQU  (lanes_planes+0*8*const_batchLanes)(B), Y5; \
	VMOVDQU  (lanes_planes+1*8*const_batchLanes)(B), Y6; \
	VMOVDQU  (lanes_planes+2*8*const_batchLanes)(B), Y7; \
	VMOVDQU  (lanes_planes+3*8*const_batchLanes)(B), Y8; \
	VPXOR    Y3, Y5, Y9; \
	VPANDN   Y3, Y5, Y3; \
	VPXOR    Y3, Y6, Y10; \
	VPANDN   Y3, Y6, Y3; \
	VPXOR    Y3, Y7, Y11; \
	VPANDN   Y3, Y7, Y3; \
	VPXOR    Y3, Y8, Y12; \
	MINPLANE(Y12); \
	MINPLANE(Y11); \
	MINPLANE(Y10); \
	MINPLANE(Y9)

// PCGSTEP(B): the 128-bit LCG step of every lane's stream (pcgStep):
// Y0 = l (new lo), Y7 = h (new hi); Y8 is kept.
//   lo*mulLo from four 32-bit products (high half: Hacker's Delight
//   mulhi), hi*mulLo and lo*mulHi (low halves) from three each.
#define PCGSTEP(B) \
	VMOVDQU  lanes_lo(B), Y5; \
	VMOVDQU  lanes_hi(B), Y6; \
	VPSRLQ   $32, Y5, Y7; \
	VPMULUDQ c_mulLo, Y5, Y0; \
	VPMULUDQ c_mulLoH, Y5, Y1; \
	VPMULUDQ c_mulLo, Y7, Y2; \
	VPMULUDQ c_mulLoH, Y7, Y7; \
	VPSRLQ   $32, Y0, Y3; \
	VPADDQ   Y3, Y2, Y2; \
	VPSRLQ   $32, Y2, Y3; \
	VPADDQ   Y3, Y7, Y7; \
	VPBLENDD $0xaa, Y14, Y2, Y2; \
	VPADDQ   Y1, Y2, Y2; \
	VPSRLQ   $32, Y2, Y3; \
	VPADDQ   Y3, Y7, Y7; \
	VPSLLQ   $32, Y2, Y2; \
	VPBLENDD $0xaa, Y2, Y0, Y0; \
	/* l = lo*mulLo + incLo; Y1: no carry out of it (l >= incLo) */ \
	VPADDQ   c_incLo, Y0, Y0; \
	VPXOR    c_sign, Y0, Y1; \
	VPCMPGTQ c_incLoFlipM1, Y1, Y1; \
	/* h = mulhi(lo, mulLo) + hi*mulLo + lo*mulHi + incHi + carry */ \
	VPMULUDQ c_mulLo, Y6, Y2; \
	VPADDQ   Y2, Y7, Y7; \
	VPMULUDQ c_mulLoH, Y6, Y2; \
	VPSRLQ   $32, Y6, Y6; \
	VPMULUDQ c_mulLo, Y6, Y6; \
	VPADDQ   Y6, Y2, Y2; \
	VPMULUDQ c_mulHi, Y5, Y3; \
	VPADDQ   Y3, Y7, Y7; \
	VPMULUDQ c_mulHiH, Y5, Y3; \
	VPADDQ   Y3, Y2, Y2; \
	VPSRLQ   $32, Y5, Y3; \
	VPMULUDQ c_mulHi, Y3, Y3; \
	VPADDQ   Y3, Y2, Y2; \
	VPSLLQ   $32, Y2, Y2; \
	VPADDQ   Y2, Y7, Y7; \
	VPADDQ   c_incHi1, Y7, Y7; \
	VPADDQ   Y1, Y7, Y7

// DROP(k): drop the lowest allowed square (Y4) of the lanes whose index
// (Y2) is larger than k (a constant operand).
#define DROP(k) \
	VPCMPGTQ k, Y2, Y3; \
	VPADDQ   Y3, Y4, Y1; \
	VPAND    Y1, Y4, Y4

// CHOOSE(B, retryl): find the lanes with more than one allowed square,
// draw for them the index of the chosen square from their streams exactly
// as uniform does (a rare rejection jumps to retryl), and turn every
// lane's allowed squares into the chosen one (Y4).
#define CHOOSE(B, retryl) \
	VMOVDQA  Y4, Y8; \
	POPCNT(Y8, Y1, Y2); \
	VPCMPGTQ c_one, Y8, Y13; \
	PCGSTEP(B); \
	/* the output's low half: DXSM, times l|1 */ \
	VPSRLQ   $32, Y7, Y1; \
	VPXOR    Y7, Y1, Y1; \
	VPMULUDQ c_dxsm, Y1, Y2; \
	VPMULUDQ c_dxsmH, Y1, Y3; \
	VPSRLQ   $32, Y1, Y1; \
	VPMULUDQ c_dxsm, Y1, Y1; \
	VPADDQ   Y1, Y3, Y3; \
	VPSLLQ   $32, Y3, Y3; \
	VPADDQ   Y3, Y2, Y2; \
	VPSRLQ   $48, Y2, Y3; \
	VPXOR    Y3, Y2, Y2; \
	VPOR     c_one, Y0, Y3; \
	VPMULUDQ Y3, Y2, Y2; \
	/* Lemire: prod = x32 * m; reject when its low half < m */ \
	VPMULUDQ Y8, Y2, Y2; \
	VPBLENDD $0xaa, Y14, Y2, Y3; \
	VPCMPGTQ Y3, Y8, Y3; \
	VPAND    Y13, Y3, Y3; \
	VPTEST   Y3, Y3; \
	JNZ      retryl; \
	VPSRLQ   $32, Y2, Y2; \
	/* select: drop the lowest allowed square while idx > r, r = 0..6 */ \
	DROP(Y14); \
	DROP(c_one); \
	DROP(c_two); \
	DROP(c_three); \
	DROP(c_four); \
	DROP(c_five); \
	DROP(c_six); \
	/* the lowest one left is the chosen square */ \
	VPSUBQ   Y4, Y14, Y1; \
	VPAND    Y1, Y4, Y4

// STORE(B): write group B's lanes back: the move (visited), the chosen
// square, a tie counted and the stream advanced where there was a draw.
#define STORE(B) \
	VMOVDQU  lanes_set(B), Y1; \
	VPOR     lanes_visited(B), Y1, Y1; \
	VMOVDQU  Y1, lanes_visited(B); \
	VMOVDQU  Y4, lanes_set(B); \
	VMOVDQU  lanes_ties(B), Y1; \
	VPSUBQ   Y13, Y1, Y1; \
	VMOVDQU  Y1, lanes_ties(B); \
	VMOVDQU  lanes_lo(B), Y1; \
	VPBLENDVB Y13, Y0, Y1, Y0; \
	VMOVDQU  Y0, lanes_lo(B); \
	VMOVDQU  lanes_hi(B), Y1; \
	VPBLENDVB Y13, Y7, Y1, Y7; \
	VMOVDQU  Y7, lanes_hi(B)

#define STOREPLANES(B) \
	VMOVDQU  Y9, (lanes_planes+0*8*const_batchLanes)(B); \
	VMOVDQU  Y10, (lanes_planes+1*8*const_batchLanes)(B); \
	VMOVDQU  Y11, (lanes_planes+2*8*const_batchLanes)(B); \
	VMOVDQU  Y12, (lanes_planes+3*8*const_batchLanes)(B)

#define SETUP \
	MOVQ     ls+0(FP), DI; \
	LEAQ     (4*8*4)(DI), R9; \
	MOVQ     nb+8(FP), SI; \
	MOVQ     rounds+24(FP), DX; \
	VPXOR    Y14, Y14, Y14; \
	VPCMPEQQ Y15, Y15, Y15

// NEXTGROUP(groupl, roundl): on to the next group of the round, or the
// next round.
#define NEXTGROUP(groupl, roundl) \
	ADDQ     $32, R8; \
	CMPQ     R8, R9; \
	JB       groupl; \
	JMP      roundl

// NEXTROUND(groupl): start a round at group 0, or return 0 when the
// rounds are used up.
#define NEXTROUND(groupl) \
	TESTQ    DX, DX; \
	JZ       done; \
	DECQ     DX; \
	MOVQ     DI, R8; \
	JMP      groupl

// Exits: end reports the current group's ended lanes (AX, shifted to
// their lane numbers), retry a rejected draw (bit 16), done the rounds
// used up (0). Nothing of the current group's round is stored.
#define EXITS \
end: \
	MOVQ     R8, CX; \
	SUBQ     DI, CX; \
	SHRQ     $3, CX; \
	SHLQ     CX, AX; \
	JMP      ret; \
retry: \
	MOVQ     $0x10000, AX; \
	JMP      ret; \
done: \
	XORQ     AX, AX; \
ret: \
	VZEROUPPER; \
	MOVQ     AX, ret+32(FP); \
	RET

// func vec2Warnsdorff(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64
TEXT ·vec2Warnsdorff(SB), NOSPLIT, $0-40
	SETUP
	CMPQ     maxSteps+16(FP), $64
	JB       lround
round:
	NEXTROUND(group)
group:
	MOVE(R8)
	ENDCHECK(end)
	DEGREES(R8)
	CHOOSE(R8, retry)
	STORE(R8)
	STOREPLANES(R8)
	NEXTGROUP(group, round)
lround:
	NEXTROUND(lgroup)
lgroup:
	MOVE(R8)
	LIMIT
	ENDCHECK(end)
	DEGREES(R8)
	CHOOSE(R8, retry)
	STORE(R8)
	STOREPLANES(R8)
	NEXTGROUP(lgroup, lround)
	EXITS

// The random walk's rounds leave Y9..Y12 free: POPCNT keeps its table and
// mask there (loaded once, below) instead of loading them each time.
#undef POPCNT
#define POPCNT(x, t, lut) \
	VPAND    Y11, x, t; \
	VPSRLQ   $4, x, x; \
	VPAND    Y11, x, x; \
	VPSHUFB  t, Y12, t; \
	VPSHUFB  x, Y12, x; \
	VPADDB   t, x, x; \
	VPSADBW  Y14, x, x

// func vec2Random(ls *lanes, nb *[64]uint64, maxSteps uint64, rounds int) uint64
TEXT ·vec2Random(SB), NOSPLIT, $0-40
	SETUP
	VMOVDQU  c_nib, Y11
	VMOVDQU  c_lut, Y12
	CMPQ     maxSteps+16(FP), $64
	JB       lround
round:
	NEXTROUND(group)
group:
	MOVE(R8)
	ENDCHECK(end)
	CHOOSE(R8, retry)
	STORE(R8)
	NEXTGROUP(group, round)
lround:
	NEXTROUND(lgroup)
lgroup:
	MOVE(R8)
	LIMIT
	ENDCHECK(end)
	CHOOSE(R8, retry)
	STORE(R8)
	NEXTGROUP(lgroup, lround)
	EXITS
