//go:build !linux

package sim

func adviseHuge(b []byte) {}
