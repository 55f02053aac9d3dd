/* Straightforward C versions of the two 8x8 bitboard kernels (Warnsdorff's
 * rule with random tie-breaking, and the uniformly random walk), one walk at
 * a time, for `experiment bench` to compare the Go kernels against. They
 * follow the project's stream contract (sim/seed.go): the same key, the
 * same PCG-DXSM stream per walk and the same choice rule, so they walk the
 * same walks as the Go kernels; the run prints the total steps of its first
 * walks for the caller to check.
 *
 * Build: cc -O3 -march=native -o kernels kernels.c
 * Usage: kernels warnsdorff|random WALKS   (prints one JSON line)
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

static uint64_t nb[64];

static void init_board(void) {
	static const int dr[8] = {2, 1, -1, -2, -2, -1, 1, 2}, dc[8] = {1, 2, 2, 1, -1, -2, -2, -1};
	for (int sq = 0; sq < 64; sq++)
		for (int i = 0; i < 8; i++) {
			int r = sq / 8 + dr[i], c = sq % 8 + dc[i];
			if (r >= 0 && r < 8 && c >= 0 && c < 8)
				nb[sq] |= 1ULL << (r * 8 + c);
		}
}

/* The n-th lowest set bit of m, as a mask. */
static uint64_t nth_bit(uint64_t m, uint32_t n) {
	while (n--)
		m &= m - 1;
	return m & -m;
}

/* Both walks return their length (squares visited). */
static int random_walk(int start, pcg *p) {
	uint64_t visited = 1ULL << start;
	int cur = start, length = 1;
	for (;;) {
		uint64_t cand = nb[cur] & ~visited;
		if (!cand)
			return length;
		if (cand & (cand - 1))
			cand = nth_bit(cand, uniform(p, (uint32_t)__builtin_popcountll(cand)));
		cur = __builtin_ctzll(cand);
		visited |= cand;
		length++;
	}
}

static int warnsdorff_walk(int start, pcg *p) {
	uint8_t deg[64];
	for (int sq = 0; sq < 64; sq++)
		deg[sq] = (uint8_t)__builtin_popcountll(nb[sq]);
	uint64_t visited = 1ULL << start;
	for (uint64_t b = nb[start]; b; b &= b - 1)
		deg[__builtin_ctzll(b)]--;
	int cur = start, length = 1;
	for (;;) {
		uint64_t cand = nb[cur] & ~visited;
		if (!cand)
			return length;
		/* Keep the candidates of minimum degree, in ascending order. */
		uint64_t best = 0;
		int min = 9;
		for (uint64_t c = cand; c; c &= c - 1) {
			int sq = __builtin_ctzll(c);
			if (deg[sq] < min) {
				min = deg[sq];
				best = 0;
			}
			if (deg[sq] == min)
				best |= 1ULL << sq;
		}
		if (best & (best - 1))
			best = nth_bit(best, uniform(p, (uint32_t)__builtin_popcountll(best)));
		cur = __builtin_ctzll(best);
		visited |= best;
		for (uint64_t b = nb[cur]; b; b &= b - 1)
			deg[__builtin_ctzll(b)]--;
		length++;
	}
}

int main(int argc, char **argv) {
	if (argc != 3 || (strcmp(argv[1], "warnsdorff") && strcmp(argv[1], "random"))) {
		fprintf(stderr, "usage: kernels warnsdorff|random WALKS\n");
		return 2;
	}
	int warn = strcmp(argv[1], "warnsdorff") == 0;
	const char *rule = warn ? "warnsdorff/random" : "random";
	uint64_t walks = strtoull(argv[2], 0, 10);
	init_board();
	uint64_t keys[64];
	for (int s = 0; s < 64; s++)
		keys[s] = new_key(1, 8, 8, rule, s);
	/* Walk w starts from square w/1024 % 64 (runs of 1024 per start, as
	 * `experiment bench` runs the Go kernels), stream w of that start. */
	uint64_t steps = 0, check = 0;
	struct timespec t0, t1, c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	for (uint64_t w = 0; w < walks; w++) {
		int start = (int)(w / 1024 % 64);
		uint64_t k = keys[start];
		pcg p = {mix64(k ^ w), mix64(k + w + 0x9e3779b97f4a7c15ULL)};
		int len = warn ? warnsdorff_walk(start, &p) : random_walk(start, &p);
		steps += (uint64_t)(len - 1);
		if (w == 65535)
			check = steps;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
	printf("{\"walks\": %llu, \"seconds\": %.9f, \"cpu_seconds\": %.9f, \"steps\": %llu, "
	       "\"check_walks\": 65536, \"check_steps\": %llu}\n",
	       (unsigned long long)walks, secs, cpu, (unsigned long long)steps, (unsigned long long)check);
	return 0;
}
