//go:build amd64 && !purego

#include "textflag.h"

// func prefetchLines(addrs []unsafe.Pointer) uintptr
TEXT ·prefetchLines(SB), NOSPLIT, $0-32
	MOVQ addrs_base+0(FP), SI
	MOVQ addrs_len+8(FP), CX
	TESTQ CX, CX
	JEQ done
loop:
	MOVQ (SI), AX
	PREFETCHT0 (AX)
	ADDQ $8, SI
	DECQ CX
	JNE loop
done:
	MOVQ $0, ret+24(FP)
	RET
