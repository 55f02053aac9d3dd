package runner

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/knightwalk/knightwalk/sim"
)

// A walk fragment file holds the per-walk outcomes of finished units, so
// that the per-walk table survives an interruption (--resume) and travels
// with a shard's part (merge). It is a sequence of records, one per unit:
//
//	uvarint  length of the payload
//	payload  uvarint unit ID, uvarint first walk, uvarint walks, then per
//	         walk: uvarint length, uvarint end square, uvarint ties, and a
//	         byte of flags (1 success, 2 closed)
//	32 bytes SHA-256 of the config hash, a zero byte and the payload
//
// Only what the walks table holds is kept; the rest of each row follows
// from the unit. A record that fails its checks is never used.

// maxFragmentPayload bounds one record: a unit has at most stepsPerUnit
// walks, each at most 31 bytes.
const maxFragmentPayload = stepsPerUnit*31 + 64

// fragWriter appends sealed records to a fragment file.
type fragWriter struct {
	f    *os.File
	w    *bufio.Writer
	off  int64
	hash string
	buf  []byte
	pos  map[int]fragPos // unit → where its record is
	rows uint64
}

// fragPos is where a record's payload starts and how long it is.
type fragPos struct {
	off int64
	n   int
}

func createFrag(path, configHash string) (*fragWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &fragWriter{f: f, w: bufio.NewWriterSize(f, 1<<20), hash: configHash, pos: map[int]fragPos{}}, nil
}

// add appends the record of unit u's walks and flushes it to the file.
func (fw *fragWriter) add(u Unit, walks []sim.Outcome) error {
	if err := fw.write(encodeWalks(fw.buf[:0], u, walks), u.ID); err != nil {
		return err
	}
	return fw.w.Flush()
}

// write appends one sealed record of an encoded payload.
func (fw *fragWriter) write(payload []byte, unit int) error {
	fw.buf = payload
	var hdr [binary.MaxVarintLen64]byte
	h := binary.PutUvarint(hdr[:], uint64(len(payload)))
	fw.w.Write(hdr[:h])
	fw.w.Write(payload)
	sum := sealBytes(fw.hash, payload)
	if _, err := fw.w.Write(sum[:]); err != nil {
		return err
	}
	fw.pos[unit] = fragPos{fw.off + int64(h), len(payload)}
	fw.off += int64(h + len(payload) + len(sum))
	return nil
}

func (fw *fragWriter) close() error {
	if err := fw.w.Flush(); err != nil {
		fw.f.Close()
		return err
	}
	return fw.f.Close()
}

func sealBytes(configHash string, payload []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(configHash))
	h.Write([]byte{0})
	h.Write(payload)
	return [32]byte(h.Sum(nil))
}

// Walk flags in a fragment record.
const (
	fragSuccess = 1 << iota
	fragClosed
	fragStopped
	fragBudget
	fragNodes // nodes and backtracks follow (backtracking rules)
)

func encodeWalks(b []byte, u Unit, walks []sim.Outcome) []byte {
	b = binary.AppendUvarint(b, uint64(u.ID))
	b = binary.AppendUvarint(b, u.Lo)
	b = binary.AppendUvarint(b, uint64(len(walks)))
	for _, o := range walks {
		b = binary.AppendUvarint(b, uint64(o.Length))
		b = binary.AppendUvarint(b, uint64(o.End))
		b = binary.AppendUvarint(b, uint64(o.Ties))
		var fl byte
		for _, f := range [...]struct {
			set bool
			bit byte
		}{{o.Success, fragSuccess}, {o.Closed, fragClosed}, {o.Stopped, fragStopped}, {o.BudgetExceeded, fragBudget},
			{o.Nodes != 0 || o.Backtracks != 0, fragNodes}} {
			if f.set {
				fl |= f.bit
			}
		}
		b = append(b, fl)
		if fl&fragNodes != 0 {
			b = binary.AppendUvarint(b, uint64(o.Nodes))
			b = binary.AppendUvarint(b, uint64(o.Backtracks))
		}
	}
	return b
}

// decodeWalks decodes a payload, checking it against the plan: a unit of
// the plan, its walks exactly, every outcome possible on its board.
func decodeWalks(payload []byte, p *Plan) (Unit, []sim.Outcome, error) {
	r := &byteReader{b: payload}
	id, lo, n := r.uvarint(), r.uvarint(), r.uvarint()
	if r.err != nil || id >= uint64(p.Len()) {
		return Unit{ID: -1}, nil, fmt.Errorf("a record of no unit of this plan")
	}
	u := p.Unit(int(id))
	if lo != u.Lo || n != u.Hi-u.Lo {
		return u, nil, fmt.Errorf("walks %d-%d, want %d-%d", lo, lo+n, u.Lo, u.Hi)
	}
	squares := uint64(p.Exp.Boards[u.Board].Squares())
	backtrack := p.Exp.Rules[u.Rule].Kind == sim.Backtrack
	walks := make([]sim.Outcome, n)
	for i := range walks {
		length, end, ties, fl := r.uvarint(), r.uvarint(), r.uvarint(), r.byte()
		var nodes, backtracks uint64
		if fl&fragNodes != 0 {
			nodes, backtracks = r.uvarint(), r.uvarint()
		}
		success := fl&fragSuccess != 0
		if r.err != nil || length < 1 || length > squares || end >= squares || ties > max(squares, nodes) || fl >= fragNodes<<1 ||
			(fl&fragClosed != 0 && !success) || success != (length == squares) || (success && fl&(fragStopped|fragBudget) != 0) ||
			(!backtrack && fl&(fragBudget|fragNodes) != 0) || nodes > 1<<62 || backtracks > nodes {
			return u, nil, fmt.Errorf("walk %d: not an outcome of %s", u.Lo+uint64(i), p.Exp.Boards[u.Board])
		}
		walks[i] = sim.Outcome{Start: u.Start, Length: int(length), End: int(end), Ties: int(ties), Success: success,
			Closed: fl&fragClosed != 0, Stopped: fl&fragStopped != 0, BudgetExceeded: fl&fragBudget != 0,
			Nodes: int64(nodes), Backtracks: int64(backtracks)}
	}
	if len(r.b) != r.i {
		return u, nil, errors.New("data after the last walk")
	}
	return u, walks, nil
}

type byteReader struct {
	b   []byte
	i   int
	err error
}

func (r *byteReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		r.err = errors.New("bad varint")
		return 0
	}
	r.i += n
	return v
}

func (r *byteReader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.err = errors.New("short record")
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

// errTorn marks a record cut short at the end of the file.
var errTorn = errors.New("record cut short")

// fragReader reads records in file order, hashing all it reads.
type fragReader struct {
	r    *bufio.Reader
	sum  hash.Hash
	off  int64
	hash string
}

func newFragReader(r io.Reader, configHash string) *fragReader {
	h := sha256.New()
	return &fragReader{r: bufio.NewReaderSize(io.TeeReader(r, h), 1<<20), sum: h, hash: configHash}
}

// next returns the next record's payload and the offset it starts at; io.EOF
// at a clean end of file, errTorn for a record cut short, another error for
// a record that is complete but damaged.
func (fr *fragReader) next() (payload []byte, off int64, err error) {
	n, err := binary.ReadUvarint(fr.r)
	if errors.Is(err, io.EOF) {
		return nil, 0, io.EOF
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, 0, errTorn
	} else if err != nil || n == 0 || n > maxFragmentPayload {
		return nil, 0, fmt.Errorf("byte %d: not a walk record", fr.off)
	}
	h := int64(uvarintLen(n))
	buf := make([]byte, int(n)+32)
	if _, err := io.ReadFull(fr.r, buf); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, 0, errTorn
		}
		return nil, 0, err
	}
	off = fr.off + h
	payload = buf[:n]
	if sealBytes(fr.hash, payload) != [32]byte(buf[n:]) {
		return nil, 0, fmt.Errorf("byte %d: checksum mismatch: the record was changed after it was written", fr.off)
	}
	fr.off += h + int64(len(buf))
	return payload, off, nil
}

func uvarintLen(v uint64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], v)
}

// resumeFrag reopens the fragment file of an interrupted run: it checks
// every record, drops a torn last one, and keeps the positions of the
// records of units in done (the units the checkpoint vouches for). A unit
// of done without a record refuses the resume.
func resumeFrag(path, configHash string, p *Plan, done map[int]bool) (*fragWriter, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("--resume: the per-walk table's fragments: %w", err)
	}
	fr := newFragReader(f, configHash)
	pos := map[int]fragPos{}
	var rows uint64
	for {
		payload, off, err := fr.next()
		if err == io.EOF || errors.Is(err, errTorn) {
			break
		}
		u := Unit{ID: -1} // a record that fails its seal belongs to no unit we can name
		if err == nil {
			u, _, err = decodeWalks(payload, p)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %v%s; the fragments are damaged and none of them is used: run again with --force instead of --resume to discard it and start afresh", path, err, unitLabel(p, u))
		}
		if done[u.ID] {
			if _, dup := pos[u.ID]; !dup {
				rows += u.Hi - u.Lo
			}
			pos[u.ID] = fragPos{off, len(payload)}
		}
	}
	for id := range done {
		if _, ok := pos[id]; !ok {
			f.Close()
			return nil, fmt.Errorf("%s: unit %d%s is in the checkpoint but its walks are not here: run again with --force instead of --resume to discard it and start afresh", path, id, unitLabel(p, p.Unit(id)))
		}
	}
	if err := f.Truncate(fr.off); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(fr.off, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &fragWriter{f: f, w: bufio.NewWriterSize(f, 1<<20), off: fr.off, hash: configHash, pos: pos, rows: rows}, nil
}

// unitWalks reads back the walks of unit id from the fragment file.
func (fw *fragWriter) unitWalks(p *Plan, id int) (Unit, []sim.Outcome, []byte, error) {
	at, ok := fw.pos[id]
	if !ok {
		return Unit{}, nil, nil, fmt.Errorf("runner: no walks of unit %d", id)
	}
	buf := make([]byte, at.n+32)
	if _, err := fw.f.ReadAt(buf, at.off); err != nil {
		return Unit{}, nil, nil, err
	}
	payload := buf[:at.n]
	if sealBytes(fw.hash, payload) != [32]byte(buf[at.n:]) {
		return Unit{}, nil, nil, fmt.Errorf("%s: unit %d: checksum mismatch: the file changed during the run", fw.f.Name(), id)
	}
	u, walks, err := decodeWalks(payload, p)
	if err == nil && u.ID != id {
		err = fmt.Errorf("%s: unit %d's record holds unit %d", fw.f.Name(), id, u.ID)
	}
	return u, walks, payload, err
}
