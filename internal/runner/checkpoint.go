package runner

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

const checkpointName = "checkpoint.jsonl"

// checkpointHeader is the first line of a checkpoint: which experiment it
// belongs to.
type checkpointHeader struct {
	ConfigHash string `json:"config_hash"`
	Shard      string `json:"shard"`
	Units      int    `json:"units"`
}

type checkpointLine struct {
	Unit  int       `json:"unit"`
	Tally tallyJSON `json:"tally"`
}

// checkpoint appends each finished unit's tally to DIR.partial, so that a
// killed run can continue from the units it completed.
type checkpoint struct {
	f *os.File
	w *bufio.Writer
}

// openCheckpoint starts a new checkpoint in dir.
func openCheckpoint(dir string, h checkpointHeader) (*checkpoint, error) {
	f, err := os.Create(filepath.Join(dir, checkpointName))
	if err != nil {
		return nil, err
	}
	c := &checkpoint{f: f, w: bufio.NewWriter(f)}
	if err := c.write(h); err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}

// resumeCheckpoint reads the units completed in dir's checkpoint into ts and
// reopens it for appending. It refuses a checkpoint of another config.
func resumeCheckpoint(dir string, h checkpointHeader, p *Plan, ts *Tallies) (done map[int]bool, c *checkpoint, err error) {
	path := filepath.Join(dir, checkpointName)
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: empty checkpoint", path)
	}
	var got checkpointHeader
	if err := json.Unmarshal(sc.Bytes(), &got); err != nil || got != h {
		return nil, nil, fmt.Errorf("%s: checkpoint of a different config, shard or plan (%+v, want %+v): run without --resume to start afresh", path, got, h)
	}
	done = map[int]bool{}
	valid := int64(len(sc.Bytes()) + 1)
	for sc.Scan() {
		var l checkpointLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Tally.Tally == nil || l.Unit < 0 || l.Unit >= len(p.Units) {
			break // a line cut short by the kill: redo that unit
		}
		if done[l.Unit] {
			return nil, nil, fmt.Errorf("%s: unit %d recorded twice", path, l.Unit)
		}
		if err := ts.Add(p.Units[l.Unit].Cell(), l.Tally.Tally); err != nil {
			return nil, nil, fmt.Errorf("%s: unit %d: %w", path, l.Unit, err)
		}
		done[l.Unit] = true
		valid += int64(len(sc.Bytes()) + 1)
	}
	// Drop a torn last line before appending.
	if err := os.Truncate(path, valid); err != nil {
		return nil, nil, err
	}
	af, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, err
	}
	return done, &checkpoint{f: af, w: bufio.NewWriter(af)}, nil
}

// Add records a finished unit.
func (c *checkpoint) Add(r Result) error {
	var err error
	if r.sparse != nil { // the same JSON as tallyJSON writes
		err = c.write(struct {
			Unit  int          `json:"unit"`
			Tally *sparseTally `json:"tally"`
		}{r.Unit.ID, r.sparse})
	} else {
		err = c.write(checkpointLine{Unit: r.Unit.ID, Tally: tallyJSON{r.Tally}})
	}
	if err != nil {
		return err
	}
	return c.w.Flush()
}

func (c *checkpoint) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.w.Write(b)
	return c.w.WriteByte('\n')
}

// Close flushes and closes the checkpoint.
func (c *checkpoint) Close() error {
	if err := c.w.Flush(); err != nil {
		c.f.Close()
		return err
	}
	return c.f.Close()
}
