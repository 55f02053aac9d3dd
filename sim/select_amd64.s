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

// func pdepSelectDrawn(ls *lanes, ndraw int)
// pdepSelect for only the ndraw lanes listed in ls.draw (the others have
// one allowed square, their choice already): Warnsdorff draws for few
// lanes a round.
TEXT ·pdepSelectDrawn(SB), NOSPLIT, $0-16
	MOVQ ls+0(FP), DI
	MOVQ ndraw+8(FP), DX
	MOVQ $1, R8
	XORQ BX, BX
	TESTQ DX, DX
	JZ done
next:
	MOVBQZX lanes_draw(DI)(BX*1), SI
	ANDQ $(const_batchLanes-1), SI
	MOVL lanes_idx(DI)(SI*4), CX
	SHLXQ CX, R8, AX
	PDEPQ lanes_set(DI)(SI*8), AX, AX
	MOVQ AX, lanes_set(DI)(SI*8)
	INCQ BX
	CMPQ BX, DX
	JB next
done:
	RET
