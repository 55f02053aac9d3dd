//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func pdepSelect(set *[batchLanes]uint64, idx *[batchLanes]uint32)
// batchLanes is a multiple of 4 (select_amd64.go checks): four lanes per
// iteration.
#define LANE(j) \
	MOVL (j*4)(SI), CX; \
	SHLXQ CX, R8, AX; \
	PDEPQ (j*8)(DI), AX, AX; \
	MOVQ AX, (j*8)(DI)

TEXT ·pdepSelect(SB), NOSPLIT, $0-16
	MOVQ set+0(FP), DI
	MOVQ idx+8(FP), SI
	MOVQ $1, R8
	MOVQ $const_batchLanes/4, DX
loop:
	LANE(0)
	LANE(1)
	LANE(2)
	LANE(3)
	ADDQ $32, DI
	ADDQ $16, SI
	DECQ DX
	JNZ loop
	RET
