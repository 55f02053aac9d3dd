"""Plain Python implementations of seed 000 (Warnsdorff's rule, ties broken
at random) and seed 001 (mc_search, the uniformly random knight walk), for
`experiment bench` to compare against. Written the way the seeds describe
them: a board of lists, the 8 moves, onward-move counts recomputed for
every candidate. Prints one JSON line: walks, seconds, successes, steps.

Usage: python3 knight_py.py warnsdorff|random N WALKS
"""
import json
import random
import sys
import time

MOVES = [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]


def valid_positions(board, n, r, c):
    out = []
    for dr, dc in MOVES:
        nr, nc = r + dr, c + dc
        if 0 <= nr < n and 0 <= nc < n and not board[nr][nc]:
            out.append((nr, nc))
    return out


def warnsdorff(n, start, rng):
    board = [[False] * n for _ in range(n)]
    r, c = start
    board[r][c] = True
    length = 1
    while True:
        cands = valid_positions(board, n, r, c)
        if not cands:
            return length
        degs = [len(valid_positions(board, n, a, b)) for a, b in cands]
        m = min(degs)
        r, c = rng.choice([p for p, d in zip(cands, degs) if d == m])
        board[r][c] = True
        length += 1


def mc_search(n, start, rng):
    board = [[False] * n for _ in range(n)]
    r, c = start
    board[r][c] = True
    length = 1
    while True:
        cands = valid_positions(board, n, r, c)
        if not cands:
            return length
        r, c = rng.choice(cands)
        board[r][c] = True
        length += 1


def main():
    rule, n, walks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    walk = warnsdorff if rule == "warnsdorff" else mc_search
    rng = random.Random(1)
    t0 = time.perf_counter()
    succ = steps = 0
    for i in range(walks):
        start = divmod(i % (n * n), n)
        length = walk(n, start, rng)
        steps += length - 1
        succ += length == n * n
    secs = time.perf_counter() - t0
    print(json.dumps({"walks": walks, "seconds": secs, "successes": succ, "steps": steps}))


if __name__ == "__main__":
    main()
