package runner

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/knightwalk/knightwalk/internal/safeio"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/knightwalk/knightwalk/stats"
)

const checkpointName = "checkpoint.jsonl"

const checkpointFormat = "knightwalk-checkpoint/2"

// maxCheckpointLine bounds one line of a checkpoint: a sparse tally of the
// largest board a config allows, with room to spare.
const maxCheckpointLine = 1 << 30

// checkpointHeader is the first line of a checkpoint: which experiment it
// belongs to.
type checkpointHeader struct {
	Format     string `json:"format"`
	ConfigHash string `json:"config_hash"`
	Shard      string `json:"shard"`
	Units      int    `json:"units"`
}

// checkpointBody is what a checkpoint record says: unit Unit is done, with
// this tally.
type checkpointBody struct {
	Unit  int         `json:"unit"`
	Tally sparseTally `json:"tally"`
}

// checkpointRecord is one line after the header: the body and its seal,
// a SHA-256 over the config hash and the body's JSON, so that a record
// changed after it was written, or copied from another experiment's
// checkpoint, is never used.
type checkpointRecord struct {
	checkpointBody
	Sum string `json:"sum"`
}

// appendJSON appends json.Marshal(b) to dst, without reflection: a
// design's millions of one-walk units spent a tenth of their run
// encoding their checkpoint records (TestCheckpointJSON holds it to
// json.Marshal).
func (b checkpointBody) appendJSON(dst []byte) []byte {
	t := &b.Tally
	dst = append(dst, `{"unit":`...)
	dst = strconv.AppendInt(dst, int64(b.Unit), 10)
	dst = append(dst, `,"tally":{"squares":`...)
	dst = strconv.AppendInt(dst, int64(t.Squares), 10)
	for _, f := range []struct {
		name string
		v    uint64
	}{{"walks", t.Walks}, {"successes", t.Successes}, {"closed", t.Closed}, {"stopped", t.Stopped}, {"tie_sum", t.TieSum},
		{"node_sum", t.NodeSum}, {"backtrack_sum", t.BacktrackSum}, {"budget_exceeded", t.BudgetExceeded}} {
		dst = append(append(append(dst, ',', '"'), f.name...), '"', ':')
		dst = strconv.AppendUint(dst, f.v, 10)
	}
	for _, h := range []struct {
		name string
		bins [][2]uint64
	}{{"lengths", t.Lengths}, {"deadends", t.DeadEnds}} {
		dst = append(append(append(dst, ',', '"'), h.name...), '"', ':')
		if h.bins == nil {
			dst = append(dst, "null"...)
			continue
		}
		dst = append(dst, '[')
		for i, p := range h.bins {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '[')
			dst = strconv.AppendUint(dst, p[0], 10)
			dst = append(dst, ',')
			dst = strconv.AppendUint(dst, p[1], 10)
			dst = append(dst, ']')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}', '}')
}

// seal returns the hex SHA-256 of the config hash and content.
func seal(configHash string, content []byte) string {
	h := sha256.New()
	h.Write([]byte(configHash))
	h.Write([]byte{0})
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// checkpoint appends each finished unit's tally to DIR.partial, so that a
// killed run can continue from the units it completed.
type checkpoint struct {
	f    *os.File
	w    *bufio.Writer
	hash string
	buf  []byte // Add's record, reused
	// flushed is when Add last wrote its buffer to the file: it does so
	// at most every flushEvery, not once a unit (a design's millions of
	// one-walk units spent more time in write calls than in their walks);
	// Close writes the rest, and a run killed outright loses at most the
	// units of the last flushEvery, which --resume runs again.
	flushed time.Time
}

// flushEvery is how often Add writes the checkpoint's buffered records.
const flushEvery = 100 * time.Millisecond

// openCheckpoint starts a new checkpoint in dir.
func openCheckpoint(dir string, h checkpointHeader) (*checkpoint, error) {
	f, err := os.Create(filepath.Join(dir, checkpointName))
	if err != nil {
		return nil, err
	}
	c := &checkpoint{f: f, w: bufio.NewWriter(f), hash: h.ConfigHash}
	if err := c.write(h); err != nil {
		f.Close()
		return nil, err
	}
	return c, nil
}

// resumeCheckpoint reads the units of shard completed in dir's checkpoint
// into ts and reopens it for appending. A last line cut short (no newline:
// the run was killed while writing it) is dropped and its unit run again;
// any other record that fails its checks refuses the resume, naming the
// line and why, and nothing of it is used.
func resumeCheckpoint(dir string, h checkpointHeader, p *Plan, shard Shard, ts tallySink) (done map[int]bool, c *checkpoint, err error) {
	path := filepath.Join(dir, checkpointName)
	f, err := safeio.OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	done, valid, err := readCheckpoint(f, path, h, p, shard, ts)
	if err != nil {
		return nil, nil, err
	}
	// Drop a torn last line before appending.
	if err := os.Truncate(path, valid); err != nil {
		return nil, nil, err
	}
	af, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, err
	}
	return done, &checkpoint{f: af, w: bufio.NewWriter(af), hash: h.ConfigHash}, nil
}

// readCheckpoint reads a checkpoint from r (named path in messages): the
// header must be h, every record sealed, of a unit of shard, recorded
// once, with a tally of exactly that unit's walks. It returns the units
// done and the length of the valid prefix (everything but a torn last
// line).
func readCheckpoint(r io.Reader, path string, h checkpointHeader, p *Plan, shard Shard, ts tallySink) (done map[int]bool, valid int64, err error) {
	br := bufio.NewReader(r)
	line, torn, err := readLine(br)
	if err != nil && err != io.EOF {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	var got checkpointHeader
	if err == io.EOF || torn {
		return nil, 0, fmt.Errorf("%s: empty checkpoint: run again with --force instead of --resume to discard it and start afresh", path)
	}
	if err := decodeStrict(line, &got); err != nil || got != h {
		return nil, 0, fmt.Errorf("%s: line 1: not the checkpoint of this config, shard and plan (%s; want %+v): run again with --force instead of --resume to discard it and start afresh", path, describe(err, got), h)
	}
	done = map[int]bool{}
	valid = int64(len(line)) + 1
	for n := 2; ; n++ {
		line, torn, err := readLine(br)
		if err == io.EOF || torn { // a torn line was cut short by the kill: its unit runs again
			return done, valid, nil
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: line %d: %w", path, n, err)
		}
		u, t, err := checkRecord(line, h.ConfigHash, p, shard)
		if err == nil && done[u.ID] {
			err = errors.New("recorded twice")
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: line %d%s: %v; the checkpoint is damaged and none of it is used: run again with --force instead of --resume to discard it and start afresh", path, n, unitLabel(p, u), err)
		}
		if err := ts.addUnit(u, t); err != nil {
			return nil, 0, fmt.Errorf("%s: line %d%s: %w", path, n, unitLabel(p, u), err)
		}
		done[u.ID] = true
		valid += int64(len(line)) + 1
	}
}

func describe(err error, got checkpointHeader) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%+v", got)
}

// readLine returns the next line without its newline; torn says it ended
// at end of file without one. At end of file it returns io.EOF.
func readLine(br *bufio.Reader) (line []byte, torn bool, err error) {
	for {
		frag, err := br.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > maxCheckpointLine {
			return nil, false, fmt.Errorf("a line longer than %d bytes", maxCheckpointLine)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) == 0:
			return nil, false, io.EOF
		case errors.Is(err, io.EOF):
			return line, true, nil
		default:
			return nil, false, err
		}
	}
}

// checkRecord decodes one record strictly and checks its seal and that
// its tally is exactly the walks of its unit. On error the unit is
// returned when known (ID -1 otherwise), for the message.
func checkRecord(line []byte, configHash string, p *Plan, shard Shard) (Unit, *stats.Tally, error) {
	var rec checkpointRecord
	none := Unit{ID: -1}
	if err := decodeStrict(line, &rec); err != nil {
		return none, nil, err
	}
	if rec.Unit < 0 || rec.Unit >= p.Len() || !shard.holds(rec.Unit) {
		return none, nil, fmt.Errorf("unit %d is not a unit of shard %s of this plan of %d units", rec.Unit, shard, p.Len())
	}
	u := p.Unit(rec.Unit)
	body, err := json.Marshal(rec.checkpointBody)
	if err != nil {
		return u, nil, err
	}
	if rec.Sum != seal(configHash, body) {
		return u, nil, errors.New("checksum mismatch: the record was changed after it was written")
	}
	t, err := rec.Tally.tally(p.Exp.Boards[u.Board].Squares())
	if err != nil {
		return u, nil, err
	}
	if err := checkTally(t, u.Hi-u.Lo); err != nil {
		return u, nil, err
	}
	return u, t, nil
}

// unitLabel names a unit in messages: " (unit 12: 8x8 warnsdorff/random
// a1, walks 0-3000)".
func unitLabel(p *Plan, u Unit) string {
	if u.ID < 0 {
		return ""
	}
	b := p.Exp.Boards[u.Board]
	return fmt.Sprintf(" (unit %d: %s %s %s, walks %d-%d)", u.ID, b, p.Exp.Rules[u.Rule].Name(), b.SquareName(u.Start), u.Lo, u.Hi)
}

// checkTally checks that t is a tally of exactly walks walks, with the
// invariants of stats.Tally.
func checkTally(t *stats.Tally, walks uint64) error {
	if t.Walks != walks {
		return fmt.Errorf("a tally of %d walks where the plan has %d", t.Walks, walks)
	}
	lengths, ok1 := sum(t.Lengths)
	deadEnds, ok2 := sum(t.DeadEnds)
	if !ok1 || !ok2 || t.Lengths[0] != 0 || lengths != t.Walks || t.Successes > t.Walks || t.Closed > t.Successes ||
		t.Successes+t.Stopped+deadEnds != t.Walks || t.BudgetExceeded > t.Walks {
		return errors.New("a tally whose counts disagree with each other")
	}
	return nil
}

// sum adds up h; ok is false if the sum overflows.
func sum(h []uint64) (total uint64, ok bool) {
	for _, c := range h {
		var carry uint64
		if total, carry = bits.Add64(total, c, 0); carry != 0 {
			return 0, false
		}
	}
	return total, true
}

// Add records a finished unit.
func (c *checkpoint) Add(r Result) error {
	return c.addBody(checkpointBody{Unit: r.Unit.ID, Tally: r.sparseTally()})
}

// addBody writes the record of body.
func (c *checkpoint) addBody(body checkpointBody) error {
	c.buf = body.appendJSON(c.buf[:0])
	sum := seal(c.hash, c.buf)
	// the record is the body's fields and its seal: json.Marshal of
	// checkpointRecord, byte for byte (TestCheckpointJSON)
	c.buf = append(append(append(c.buf[:len(c.buf)-1], `,"sum":"`...), sum...), "\"}\n"...)
	if _, err := c.w.Write(c.buf); err != nil {
		return err
	}
	if now := time.Now(); now.Sub(c.flushed) >= flushEvery {
		c.flushed = now
		return c.w.Flush()
	}
	return nil
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

// checkpointProgress says how far the checkpoint in dir got ("282 of 339
// units done"), or why that cannot be told, for a message that must not
// fail, and the config hash its header names ("" if none): it reads the
// header line and counts the records after it.
func checkpointProgress(dir string) (done, configHash string) {
	f, err := safeio.OpenRegular(filepath.Join(dir, checkpointName))
	if err != nil {
		return "its checkpoint cannot be read", ""
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	line, err := r.ReadSlice('\n')
	var h checkpointHeader
	if err != nil || json.Unmarshal(line, &h) != nil || h.Format != checkpointFormat {
		return "its checkpoint has no valid header", ""
	}
	n := 0
	buf := make([]byte, 1<<16)
	for {
		k, err := r.Read(buf)
		for _, c := range buf[:k] {
			if c == '\n' {
				n++
			}
		}
		if err != nil {
			break
		}
	}
	return fmt.Sprintf("%d of %d units done", n, h.Units), h.ConfigHash
}
