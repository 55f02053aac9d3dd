"""Replay a knightwalk walk in pure Python from the random-stream contract.

The contract is sim/seed.go (the generator sim/pcg.go), 64-bit integer
operations only:

- mix64(z): the SplitMix64 finaliser;
- key k = mix64(seed), then k = mix64(k ^ v) for v in (rows, cols,
  FNV-1a-64 of the rule name, start index row*cols + col);
- walk w's stream: Go's math/rand/v2 PCG (128-bit LCG, DXSM output) seeded
  with (mix64(k ^ w), mix64(k + w + 0x9e3779b97f4a7c15));
- a choice among m allowed squares (in ascending square index) is Lemire's
  multiply-shift with rejection on the low 32 bits of a draw; no draw when
  m == 1.

The rules replayed: `random` (uniform among unvisited knight neighbours),
`warnsdorff/random` (uniform among the unvisited neighbours of fewest
unvisited onward neighbours) and `warnsdorff/first` (of those, the one
reached by the earliest move in the move order); each honours max_steps
(0: no limit), which stops a walk after that many moves when it could go on.
"""

from dataclasses import dataclass

M64 = (1 << 64) - 1
M128 = (1 << 128) - 1

# sim.CanonicalMoves, as (row step, column step)
CANONICAL_MOVES = [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]


def mix64(z):
    z &= M64
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & M64
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & M64
    return h


def stream_seeds(seed, rows, cols, rule, start_row, start_col, w):
    """The two PCG seed words of walk w of `rule` from (start_row, start_col)."""
    k = mix64(seed)
    for v in (rows, cols, fnv1a64(rule), start_row * cols + start_col):
        k = mix64(k ^ v)
    return mix64(k ^ w), mix64((k + w + 0x9E3779B97F4A7C15) & M64)


class PCG:
    """Go's math/rand/v2 PCG: a 128-bit LCG with the DXSM output function."""

    MUL = (2549297995355413924 << 64) | 4865540595714422341
    INC = (6364136223846793005 << 64) | 1442695040888963407

    def __init__(self, hi, lo):
        self.state = (hi << 64) | lo

    def uint64(self):
        self.state = (self.state * self.MUL + self.INC) & M128
        hi, lo = self.state >> 64, self.state & M64
        x = hi ^ (hi >> 32)
        x = (x * 0xDA942042E4DD58B5) & M64
        x ^= x >> 48
        return (x * (lo | 1)) & M64

    def uniform(self, m):
        """A uniform index in [0, m): Lemire's method on the low 32 bits."""
        prod = (self.uint64() & 0xFFFFFFFF) * m
        if (prod & 0xFFFFFFFF) < m:
            thresh = (2**32 - m) % m
            while (prod & 0xFFFFFFFF) < thresh:
                prod = (self.uint64() & 0xFFFFFFFF) * m
        return prod >> 32


@dataclass
class Walk:
    path: list  # squares (row, col), start first
    stopped: bool
    ties: int
    success: bool
    closed: bool

    @property
    def length(self):
        return len(self.path)

    @property
    def end(self):
        return self.path[-1]


def parse_order(text):
    """A move order as the resolved configuration writes it: "(2,1) (1,2) …"."""
    if not text:
        return CANONICAL_MOVES
    return [tuple(int(x) for x in m.strip("()").split(",")) for m in text.split()]


def replay(seed, rows, cols, rule, start_row, start_col, w, max_steps=0, order=None):
    """Walk w of `rule` from (start_row, start_col), as the Go kernels walk it."""
    if rule not in ("random", "warnsdorff/random", "warnsdorff/first"):
        raise ValueError(f"replay: rule {rule!r} is not replayed here")
    order = order or CANONICAL_MOVES
    n = rows * cols
    limit = n if max_steps <= 0 or max_steps > n else max_steps
    pcg = PCG(*stream_seeds(seed, rows, cols, rule, start_row, start_col, w))
    visited = {(start_row, start_col)}
    path = [(start_row, start_col)]
    ties = 0
    stopped = False

    def free(r, c):
        return [(r + dr, c + dc) for dr, dc in CANONICAL_MOVES
                if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in visited]

    while True:
        r, c = path[-1]
        allowed = sorted(free(r, c))  # ascending square index: row-major
        if rule != "random" and allowed:
            degree = {s: len(free(*s)) for s in allowed}
            low = min(degree.values())
            allowed = [s for s in allowed if degree[s] == low]
        if not allowed:
            break
        if len(path) > limit:
            stopped = True
            break
        nxt = allowed[0]
        if len(allowed) > 1:
            ties += 1
            if rule == "warnsdorff/first":
                rank = {(r + dr, c + dc): i for i, (dr, dc) in enumerate(order)}
                nxt = min(allowed, key=lambda s: rank[s])
            else:
                nxt = allowed[pcg.uniform(len(allowed))]
        visited.add(nxt)
        path.append(nxt)
    success = len(path) == n
    (sr, sc), (er, ec) = path[0], path[-1]
    closed = success and len(path) > 1 and sorted((abs(sr - er), abs(sc - ec))) == [1, 2]
    return Walk(path, stopped, ties, success, closed)
