package results

import (
	"time"

	"github.com/knightwalk/knightwalk/internal/buildinfo"
	"github.com/knightwalk/knightwalk/internal/config"
	"github.com/knightwalk/knightwalk/internal/table"
)

// ShardRun is the provenance of one shard of a sharded run: which binary
// ran it, on which machine and kernel path, with how many workers, when,
// and how long its walks took. A part records it (part.json's
// "provenance") and the merged manifest lists one per shard ("shards"),
// so that which machines ran a merged result is not lost, and its
// throughput is the parts' compute time, never the merge's.
type ShardRun struct {
	Shard       string         `json:"shard"` // "K/N"
	ToolVersion string         `json:"tool_version"`
	Build       buildinfo.Info `json:"build"`
	Host        buildinfo.Host `json:"host"` // host.kernel_path: the 8x8 kernel path it ran
	Workers     int            `json:"workers"`
	Walks       config.U64     `json:"walks"`       // walks this shard ran (a string, as every count that can pass 2^53)
	StartedAt   string         `json:"started_at"`  // RFC 3339, UTC
	FinishedAt  string         `json:"finished_at"` // when its part was written
	Seconds     float64        `json:"seconds"`     // time spent running its walks
}

// NewShardRun describes a shard that ran walks walks in secs seconds from
// started, now finished, on this machine with the binary of md.
func NewShardRun(shard string, md table.Metadata, workers int, walks uint64, started time.Time, secs float64) ShardRun {
	return ShardRun{Shard: shard, ToolVersion: md.ToolVersion, Build: md.Build, Host: ReadHost(), Workers: workers,
		Walks: config.U64(walks), StartedAt: timestamp(started), FinishedAt: timestamp(time.Now()), Seconds: secs}
}

// ReadHost describes this machine and its 8x8 kernel paths, as manifests
// and parts record it.
func ReadHost() buildinfo.Host { return buildinfo.ReadHost(kernelPaths()) }

// mergedRun fills the run fields of m, the manifest of a merge, from its
// shards: shard "merged", the shards' workers summed, their walks and
// compute seconds summed into the throughput, the earliest shard's start;
// the merge's own time goes to merge_seconds. A part written before parts
// recorded provenance lists only its shard, and its time is unknown (0):
// then the throughput is left out rather than computed from part of it.
func mergedRun(m *Manifest, shards []ShardRun, mergeSeconds float64) {
	m.Shard, m.Shards, m.MergeSeconds = "merged", shards, mergeSeconds
	m.Workers, m.Seconds, m.WalksPerSec = 0, 0, 0
	var walks uint64
	known := true
	for _, s := range shards {
		m.Workers += s.Workers
		m.Seconds += s.Seconds
		walks += uint64(s.Walks)
		if s.StartedAt == "" || s.Seconds <= 0 {
			known = false
			continue
		}
		if m.StartedAt == "" || s.StartedAt < m.StartedAt {
			m.StartedAt = s.StartedAt
		}
	}
	if known && m.Seconds > 0 {
		m.WalksPerSec = float64(walks) / m.Seconds
	}
}
