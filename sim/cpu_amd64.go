//go:build amd64 && !purego

package sim

// cpuid executes CPUID with the given leaf and subleaf.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 returns the low half of XCR0.
func xgetbv0() uint32

// osSaves reports whether the OS saves the register state named by the
// XCR0 bits in mask (0x6: XMM and YMM; 0xe6: also opmask and ZMM).
func osSaves(mask uint32) bool {
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1>>27&1 == 0 { // OSXSAVE: XGETBV is there
		return false
	}
	return xgetbv0()&mask == mask
}

var (
	_, cpuidEBX7, cpuidECX7, _ = cpuid(7, 0)

	// haveBMI2 reports PDEP, the batched paths' select. On AMD before
	// family 19h (Zen 1 and 2) it is microcoded and slow: auto-selection
	// measures, so it does not pick PathPDEP16 there unless it wins.
	haveBMI2 = cpuidEBX7>>8&1 != 0

	// haveStepLoops reports what the general kernel's step loops use
	// (generalstep_amd64.s): ANDN (BMI1), POPCNT, PHMINPOSUW and
	// PMOVZXBW (SSE4.1) and PSHUFB (SSSE3); every x86-64 CPU since 2013.
	haveStepLoops = cpuidEBX7>>3&1 != 0 && cpuidECX1>>23&1 != 0 && cpuidECX1>>19&1 != 0 && cpuidECX1>>9&1 != 0

	_, _, cpuidECX1, _ = cpuid(1, 0)

	// haveAVX2 reports AVX2 with the OS saving the YMM state: what the
	// AVX2 rounds (vec2_amd64.s) use.
	haveAVX2 = cpuidEBX7>>5&1 != 0 && osSaves(0x6)

	// haveAVX512 reports the AVX-512 subsets the AVX-512 rounds use: F, DQ
	// (VPMULLQ, mask bytes), CD (VPLZCNTQ) and VPOPCNTDQ, with the OS
	// saving the opmask and ZMM state.
	haveAVX512 = cpuidEBX7&avx512FDQCD == avx512FDQCD && cpuidECX7>>14&1 != 0 && osSaves(0xe6)
)

const avx512FDQCD = 1<<16 | 1<<17 | 1<<28

func cpuInfo() CPU {
	var c CPU
	_, b, cx, d := cpuid(0, 0)
	c.Vendor = string(le32(b)) + string(le32(d)) + string(le32(cx))
	eax1, _, _, _ := cpuid(1, 0)
	c.Family = int(eax1 >> 8 & 0xf)
	c.Model = int(eax1 >> 4 & 0xf)
	c.Stepping = int(eax1 & 0xf)
	if c.Family == 0xf {
		c.Family += int(eax1 >> 20 & 0xff)
	}
	if c.Family == 0xf || c.Family == 0x6 || c.Family > 0xf {
		c.Model += int(eax1>>16&0xf) << 4
	}
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt >= 0x80000004 {
		var name []byte
		for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
			a, b, cx, d := cpuid(leaf, 0)
			name = append(append(append(append(name, le32(a)...), le32(b)...), le32(cx)...), le32(d)...)
		}
		c.Name = trimName(name)
	}
	feats := []struct {
		name string
		have bool
	}{
		{"bmi2", cpuidEBX7>>8&1 != 0},
		{"avx2", cpuidEBX7>>5&1 != 0},
		{"avx512f", cpuidEBX7>>16&1 != 0},
		{"avx512dq", cpuidEBX7>>17&1 != 0},
		{"avx512cd", cpuidEBX7>>28&1 != 0},
		{"avx512vpopcntdq", cpuidECX7>>14&1 != 0},
		{"os-ymm", osSaves(0x6)},
		{"os-zmm", osSaves(0xe6)},
	}
	for _, f := range feats {
		if f.have {
			c.Features = append(c.Features, f.name)
		}
	}
	return c
}

func le32(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)} }

// trimName drops the NULs and padding spaces of a CPUID brand string.
func trimName(b []byte) string {
	s := string(b)
	for len(s) > 0 && (s[len(s)-1] == 0 || s[len(s)-1] == ' ') {
		s = s[:len(s)-1]
	}
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}
