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
(0 or None: no limit), which stops a walk after that many moves when it
could go on. And `backtrack` and `backtrack/closed` (sim/backtrack.go): a
depth-first search trying the unvisited neighbours in Warnsdorff order —
fewest onward neighbours first, equal ones in the move order (tie-break
`first`) or in an order shuffled from the stream (tie-break `random`: a
Fisher-Yates shuffle of the candidates in ascending square order, then a
stable sort by degree) — that gives up after entering node_budget squares.
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
    path: list  # squares (row, col), start first (backtrack: the last path searched)
    stopped: bool
    ties: int
    success: bool
    closed: bool
    length: int = 0  # squares visited (backtrack: of the tour, or of the deepest path)
    end: tuple = None  # the last square (backtrack failing: the deepest path's)
    nodes: int = None  # backtrack only: squares entered
    backtracks: int = None  # backtrack only: moves undone
    budget: bool = False  # backtrack gave up at the node budget

    def __post_init__(self):
        if not self.length:
            self.length, self.end = len(self.path), self.path[-1]

    @property
    def outcome(self):
        """As the walks table's outcome column writes it."""
        if self.success:
            return "closed" if self.closed else "success"
        if self.stopped:
            return "stopped"
        return "budget" if self.budget else "dead_end"


def parse_order(text):
    """A move order as the resolved configuration writes it: "(2,1) (1,2) …"."""
    if not text:
        return CANONICAL_MOVES
    return [tuple(int(x) for x in m.strip("()").split(",")) for m in text.split()]


# sim's sortedMoves: ascending square order of the neighbours
SORTED_MOVES = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]

# sim.DefaultNodeBudget
DEFAULT_NODE_BUDGET = 10_000_000


def replay(seed, rows, cols, rule, start_row, start_col, w, max_steps=0, order=None,
           node_budget=None, tie_break=None):
    """Walk w of `rule` from (start_row, start_col), as the Go kernels walk it.
    The parameters are the rule's, as the tables' columns hold them: max_steps
    (None or 0: no limit), order (a list of moves, or the move_order text),
    node_budget and tie_break (backtrack; None: the defaults)."""
    if isinstance(order, str):
        order = parse_order(order)
    if rule in ("backtrack", "backtrack/closed"):
        return _backtrack(seed, rows, cols, rule, start_row, start_col, w, order or CANONICAL_MOVES,
                          node_budget or DEFAULT_NODE_BUDGET, tie_break or "first")
    if rule not in ("random", "warnsdorff/random", "warnsdorff/first"):
        raise ValueError(f"replay: rule {rule!r} is not replayed here")
    order = order or CANONICAL_MOVES
    max_steps = max_steps or 0
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


def _knight_adjacent(a, b):
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def _backtrack(seed, rows, cols, rule, start_row, start_col, w, order, budget, tie_break):
    """sim/backtrack.go in Python: same candidates, order, draws and counts."""
    n = rows * cols
    closed_rule = rule == "backtrack/closed"
    pcg = PCG(*stream_seeds(seed, rows, cols, rule, start_row, start_col, w))
    rank_of = {m: order.index(m) for m in SORTED_MOVES}
    start = (start_row, start_col)

    def neighbours(s):
        r, c = s
        return [((r + dr, c + dc), (dr, dc)) for dr, dc in SORTED_MOVES
                if 0 <= r + dr < rows and 0 <= c + dc < cols]

    visited = set()
    free = {(r, c): len(neighbours((r, c))) for r in range(rows) for c in range(cols)}
    path, cands, nxt = [], [], []
    ties = 0

    def visit(s):
        visited.add(s)
        for q, _ in neighbours(s):
            free[q] -= 1
        path.append(s)

    def fill():
        nonlocal ties
        if closed_rule and len(path) < n and free[start] == 0:
            return []  # the start has no unvisited neighbour left: no closed tour
        c = [(q, free[q], rank_of[m]) for q, m in neighbours(path[-1]) if q not in visited]
        if tie_break == "random":
            for i in range(len(c) - 1, 0, -1):
                j = pcg.uniform(i + 1)
                c[i], c[j] = c[j], c[i]
            c = [(q, d, i) for i, (q, d, _) in enumerate(c)]
        c.sort(key=lambda x: (x[1], x[2]))
        if len(c) > 1 and c[0][1] == c[1][1]:
            ties += 1
        return [q for q, _, _ in c]

    visit(start)
    cands.append(fill())
    nxt.append(0)
    nodes, backtracks, budget_hit, success = 1, 0, False, False
    best_len, best_end = 1, start
    while True:
        d = len(path) - 1
        cur = path[-1]
        if len(path) == n and (not closed_rule or n == 1 or _knight_adjacent(start, cur)):
            success = True
            break
        if nxt[d] < len(cands[d]):
            if nodes >= budget:
                budget_hit = True
                break
            q = cands[d][nxt[d]]
            nxt[d] += 1
            visit(q)
            nodes += 1
            if len(path) > best_len:
                best_len, best_end = len(path), q
            cands.append(fill())
            nxt.append(0)
            continue
        if d == 0:
            break  # every branch tried
        visited.discard(cur)
        for q, _ in neighbours(cur):
            free[q] += 1
        path.pop()
        cands.pop()
        nxt.pop()
        backtracks += 1
    if success:
        length, end = n, path[-1]
    else:
        length, end = best_len, best_end
    closed = success and n > 1 and _knight_adjacent(start, end)
    return Walk(list(path), False, ties, success, closed, length, end, nodes, backtracks, budget_hit)


def square_name(rows, cols, row, col):
    """A square's name as the tables write it (sim.Board.SquareName): file
    letter and rank, ``a1`` for (0, 0), on boards of at most 26 columns;
    ``r<row>c<col>`` (0-based) on wider ones."""
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(f"square ({row}, {col}) is not on a {rows}x{cols} board")
    if cols > 26:
        return f"r{row}c{col}"
    return f"{chr(ord('a') + col)}{row + 1}"


def square_names(rows, cols, path):
    """The names of a walk's squares (``Walk.path``), as the tables write them."""
    return [square_name(rows, cols, r, c) for r, c in path]
