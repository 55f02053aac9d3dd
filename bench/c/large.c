/* A straightforward C version of the general (large-board) kernel, for
 * comparing `experiment run --workers 1` against: a byte board
 * padded with a two-square border of visited squares (no bounds checks),
 * each square's byte its count of unvisited neighbours (kept up to date
 * incrementally, Warnsdorff only) with bit 7 for visited, the walk undone
 * square by square after each walk, from the corner (square 0).
 *
 * With the stream "pcg" (the default) it follows the project's stream
 * contract (sim/seed.go) and choice rule (the allowed squares in ascending
 * order, Lemire's draw), so it walks the same walks as the Go kernel:
 * walk w is stream w of the corner's key, and bench's TestLargeC checks
 * the steps. With "xoroshiro" each walk draws from xoroshiro128+ instead
 * (other walks, the same distribution): the cheaper generator of issue
 * 56's measurement.
 *
 * Build: cc -O3 -march=native -o large large.c
 * Usage: large warnsdorff|random N WALKS [pcg|xoroshiro]   (one JSON line)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

static uint64_t mix64(uint64_t z) {
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ULL;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z;
}

static uint64_t fnv1a64(const char *s) {
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++) {
		h ^= (uint8_t)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t new_key(uint64_t seed, int rows, int cols, const char *rule, int start) {
	uint64_t k = mix64(seed);
	uint64_t v[4] = {(uint64_t)rows, (uint64_t)cols, fnv1a64(rule), (uint64_t)start};
	for (int i = 0; i < 4; i++)
		k = mix64(k ^ v[i]);
	return k;
}

/* math/rand/v2's PCG: 128-bit LCG, DXSM output. */
typedef struct { uint64_t hi, lo; } pcg;

static uint64_t pcg_next(pcg *p) {
	const u128 mul = ((u128)2549297995355413924ULL << 64) | 4865540595714422341ULL;
	const u128 inc = ((u128)6364136223846793005ULL << 64) | 1442695040888963407ULL;
	u128 s = (((u128)p->hi << 64) | p->lo) * mul + inc;
	p->hi = (uint64_t)(s >> 64);
	p->lo = (uint64_t)s;
	uint64_t x = p->hi;
	x ^= x >> 32;
	x *= 0xda942042e4dd58b5ULL;
	x ^= x >> 48;
	x *= p->lo | 1;
	return x;
}

/* Lemire's multiply-shift with rejection on the low 32 bits. */
static uint32_t uniform(pcg *p, uint32_t m) {
	uint64_t prod = (uint64_t)(uint32_t)pcg_next(p) * m;
	if ((uint32_t)prod < m) {
		uint32_t thresh = -m % m;
		while ((uint32_t)prod < thresh)
			prod = (uint64_t)(uint32_t)pcg_next(p) * m;
	}
	return (uint32_t)(prod >> 32);
}

/* xoroshiro128+ (Blackman and Vigna), 32 bits of each output. */
typedef struct { uint64_t s0, s1; } xoro;

static uint64_t xoro_next(xoro *x) {
	uint64_t s0 = x->s0, s1 = x->s1, r = s0 + s1;
	s1 ^= s0;
	x->s0 = ((s0 << 24) | (s0 >> 40)) ^ s1 ^ (s1 << 16);
	x->s1 = (s1 << 37) | (s1 >> 27);
	return r;
}

static uint32_t xoro_uniform(xoro *x, uint32_t m) {
	return (uint32_t)(((xoro_next(x) >> 32) * (uint64_t)m) >> 32);
}

static int n, pc;       /* board side, padded columns */
static uint8_t *st;     /* padded state: bit 7 visited, low bits unvisited neighbours */
static int32_t *path;   /* padded indices of the walk */
static int off[8];      /* padded move offsets, ascending */

static void init_board(void) {
	static const int dr[8] = {-2, -2, -1, -1, 1, 1, 2, 2}, dc[8] = {-1, 1, -2, 2, -2, 2, -1, 1};
	pc = n + 4;
	st = malloc((size_t)(n + 4) * pc);
	path = malloc(sizeof(int32_t) * (size_t)n * n);
	memset(st, 0x80 | 8, (size_t)(n + 4) * pc);
	for (int i = 0; i < 8; i++)
		off[i] = dr[i] * pc + dc[i];
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++) {
			int d = 0;
			for (int i = 0; i < 8; i++) {
				int rr = r + dr[i], cc = c + dc[i];
				d += rr >= 0 && rr < n && cc >= 0 && cc < n;
			}
			st[(r + 2) * pc + c + 2] = (uint8_t)d;
		}
}

/* One walk from the corner; returns its length (squares visited). */
static int walk(int warn, pcg *p, xoro *x) {
	int cur = 2 * pc + 2, len = 0, cand[8];
	for (;;) {
		st[cur] |= 0x80;
		if (warn)
			for (int i = 0; i < 8; i++)
				st[cur + off[i]]--;
		path[len++] = cur;
		int k = 0;
		if (warn) {
			int min = 0x80;
			for (int i = 0; i < 8; i++) {
				int q = cur + off[i], s = st[q];
				if (s < min) {
					min = s;
					k = 0;
				}
				if (s == min && s < 0x80)
					cand[k++] = q;
			}
		} else {
			for (int i = 0; i < 8; i++) {
				int q = cur + off[i];
				cand[k] = q;
				k += st[q] < 0x80;
			}
		}
		if (k == 0)
			break;
		cur = cand[k == 1 ? 0 : p ? uniform(p, (uint32_t)k) : xoro_uniform(x, (uint32_t)k)];
	}
	for (int i = 0; i < len; i++) { /* undo the walk */
		int q = path[i];
		st[q] &= 0x7f;
		if (warn)
			for (int j = 0; j < 8; j++)
				st[q + off[j]]++;
	}
	return len;
}

int main(int argc, char **argv) {
	if (argc < 4 || argc > 5 || (strcmp(argv[1], "warnsdorff") && strcmp(argv[1], "random")) ||
	    (argc == 5 && strcmp(argv[4], "pcg") && strcmp(argv[4], "xoroshiro"))) {
		fprintf(stderr, "usage: large warnsdorff|random N WALKS [pcg|xoroshiro]\n");
		return 2;
	}
	int warn = strcmp(argv[1], "warnsdorff") == 0, usepcg = argc < 5 || strcmp(argv[4], "pcg") == 0;
	const char *rule = warn ? "warnsdorff/random" : "random";
	n = atoi(argv[2]);
	uint64_t walks = strtoull(argv[3], 0, 10);
	if (n < 3 || n > 20000) {
		fprintf(stderr, "large: N from 3 to 20000\n");
		return 2;
	}
	init_board();
	uint64_t key = new_key(1, n, n, rule, 0), steps = 0;
	xoro x = {mix64(key), mix64(key ^ 0x9e3779b97f4a7c15ULL) | 1};
	struct timespec t0, t1, c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	for (uint64_t w = 0; w < walks; w++) {
		pcg p = {mix64(key ^ w), mix64(key + w + 0x9e3779b97f4a7c15ULL)};
		steps += (uint64_t)(walk(warn, usepcg ? &p : 0, &x) - 1);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
	printf("{\"board\": \"%dx%d\", \"rule\": \"%s\", \"stream\": \"%s\", \"walks\": %llu, \"steps\": %llu, "
	       "\"seconds\": %.9f, \"cpu_seconds\": %.9f}\n",
	       n, n, rule, usepcg ? "pcg" : "xoroshiro", (unsigned long long)walks, (unsigned long long)steps, secs, cpu);
	return 0;
}
