//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// The AVX-512 passes of the lane kernel (lanes.go): the check of a
// LanePolicy's answers and the move, eight lanes per 512-bit register,
// the 16 lanes as two groups of eight (B: the group's offset in bytes).

#define ALLOWED (laneKernel_l+Lanes_Allowed)
#define FREE (laneKernel_l+Lanes_Free)
#define VISITED (laneKernel_l+Lanes_Visited)
#define CUR (laneKernel_l+Lanes_Cur)
#define DEGREE (laneKernel_l+Lanes_Degree)
#define PFREE laneKernel_free
#define PVISITED laneKernel_visited
#define PCUR laneKernel_cur
#define PDEGREE laneKernel_degree

// The kernel keeps the walks in its own fields (PCUR, PVISITED, PFREE,
// PDEGREE); MOVE also writes them to the Lanes the rule reads.

// CHECK(B, ended, draw): Z0 the answers, copied to set; Z20 collects the
// squares answered that are not free, Z21 the answers of two squares or
// more; ended (a GPR) gets the lanes whose walk ends (no square allowed,
// or more than maxSteps visited: Z29), draw those that must draw.
#define CHECK(B, ended, draw) \
	VMOVDQU64 ALLOWED+B(DI), Z0; \
	VMOVDQU64 PFREE+B(DI), Z1; \
	VMOVDQU64 Z0, laneKernel_set+B(DI); \
	VPANDNQ   Z0, Z1, Z2; \
	VPORQ     Z2, Z20, Z20; \
	VPADDQ    Z30, Z0, Z3; \
	VPANDQ    Z3, Z0, Z3; \
	VPORQ     Z3, Z21, Z21; \
	VPTESTMQ  Z3, Z3, K4; \
	VPTESTNMQ Z0, Z0, K2; \
	VMOVDQU64 PVISITED+B(DI), Z4; \
	VPOPCNTQ  Z4, Z5; \
	VPCMPUQ   $6, Z29, Z5, K3; \
	KORB      K2, K3, K2; \
	KANDNB    K4, K2, K4; \
	KMOVB     K2, ended; \
	KMOVB     K4, draw

// func laneCheckAVX512(k *laneKernel, maxSteps uint64) (ended, draw, bad uint64)
// bad: bit 0 an answer not free, bit 1 an answer of two squares or more.
TEXT ·laneCheckAVX512(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), DI
	MOVQ maxSteps+8(FP), AX
	VPBROADCASTQ AX, Z29
	VPTERNLOGQ $0xff, Z30, Z30, Z30
	VPXORQ Z20, Z20, Z20
	VPXORQ Z21, Z21, Z21
	CHECK(0, AX, BX)
	CHECK(64, CX, DX)
	SHLQ $8, CX
	ORQ CX, AX
	SHLQ $8, DX
	ORQ DX, BX
	MOVQ AX, ended+16(FP)
	MOVQ BX, draw+24(FP)
	XORQ CX, CX
	VPTESTMQ Z20, Z20, K1
	KORTESTB K1, K1
	SETNE CL
	VPTESTMQ Z21, Z21, K1
	KORTESTB K1, K1
	SETNE DL
	SHLQ $1, DX
	ANDQ $2, DX
	ORQ DX, CX
	MOVQ CX, bad+32(FP)
	VZEROUPPER
	RET

// MOVE(B): move each lane of the group into its square in set (one bit):
// Visited, Cur, Free and the degree planes (a bit-sliced decrement at the
// square's neighbours).
#define MOVE(B) \
	VMOVDQU64 laneKernel_set+B(DI), Z0; \
	VPORQ     PVISITED+B(DI), Z0, Z1; \
	VMOVDQU64 Z1, PVISITED+B(DI); \
	VMOVDQU64 Z1, VISITED+B(DI); \
	VPLZCNTQ  Z0, Z2; \
	VPSUBQ    Z2, Z31, Z2; \
	VMOVDQU64 Z2, PCUR+B(DI); \
	VMOVDQU64 Z2, CUR+B(DI); \
	KXNORB    K1, K1, K1; \
	VPXORQ    Z3, Z3, Z3; \
	VPGATHERQQ (SI)(Z2*8), K1, Z3; \
	VPANDNQ   Z3, Z1, Z4; \
	VMOVDQU64 Z4, PFREE+B(DI); \
	VMOVDQU64 Z4, FREE+B(DI); \
	VMOVDQU64 (PDEGREE+0*8*const_LaneCount+B)(DI), Z5; \
	VMOVDQU64 (PDEGREE+1*8*const_LaneCount+B)(DI), Z6; \
	VMOVDQU64 (PDEGREE+2*8*const_LaneCount+B)(DI), Z7; \
	VMOVDQU64 (PDEGREE+3*8*const_LaneCount+B)(DI), Z8; \
	VPXORQ    Z3, Z5, Z9; \
	VPANDNQ   Z3, Z5, Z3; \
	VPXORQ    Z3, Z6, Z10; \
	VPANDNQ   Z3, Z6, Z3; \
	VPXORQ    Z3, Z7, Z11; \
	VPANDNQ   Z3, Z7, Z3; \
	VPXORQ    Z3, Z8, Z12; \
	VMOVDQU64 Z9, (PDEGREE+0*8*const_LaneCount+B)(DI); \
	VMOVDQU64 Z10, (PDEGREE+1*8*const_LaneCount+B)(DI); \
	VMOVDQU64 Z11, (PDEGREE+2*8*const_LaneCount+B)(DI); \
	VMOVDQU64 Z12, (PDEGREE+3*8*const_LaneCount+B)(DI); \
	VMOVDQU64 Z9, (DEGREE+0*8*const_LaneCount+B)(DI); \
	VMOVDQU64 Z10, (DEGREE+1*8*const_LaneCount+B)(DI); \
	VMOVDQU64 Z11, (DEGREE+2*8*const_LaneCount+B)(DI); \
	VMOVDQU64 Z12, (DEGREE+3*8*const_LaneCount+B)(DI)

// func laneMoveAVX512(k *laneKernel)
TEXT ·laneMoveAVX512(SB), NOSPLIT, $0-8
	MOVQ k+0(FP), DI
	LEAQ laneKernel_nb(DI), SI
	MOVQ $63, AX
	VPBROADCASTQ AX, Z31
	MOVE(0)
	MOVE(64)
	VZEROUPPER
	RET
