// A model of deflate parses over a palette tile's filtered indices: bytes (from Huffman code lengths built for the
// parse's symbols, one block) and the parse's time, for the candidate distances and parses a cheap matcher could use.
// Built and run by scripts/bench/png_lazy_model.py; see docs/guides/tile-formats.md.
//
// usage: png_lazy_model TILE.idx RGBA_BYTES PALETTE_COUNT SPEC...
// TILE.idx: width and height (uint32 LE), then the indices. SPEC: FILTER:PARSE:HASHBYTES:PROBES:ROWS[:REPEATS]
// FILTER 1 sub, 4 Paeth, 5 libpng's minimum sum per row; PARSE 0 greedy longest, 1 lazy by bits saved, 2 optimal
// (shortest path at the bit costs of a lazy parse); HASHBYTES 0 none or 4-8 (a chain of PROBES newest positions);
// ROWS 0 none, k the row above at offsets -k..k, 100+k the two rows above at -k..k; REPEATS: the last 1-2 far
// distances used. Distances 1 and 2 are always candidates.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static int W, H, N, S;
static uint8_t *idx;

static uint8_t paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}
static void filter_rows(int kind, uint8_t *out) {
    uint8_t *cand = malloc(W);
    for (int y = 0; y < H; y++) {
        uint8_t *row = idx + y * W, *prev = y ? row - W : NULL, *o = out + y * S;
        int allzero = 1;
        for (int x = 0; x < W; x++) if (row[x]) { allzero = 0; break; }
        if (allzero) { memset(o, 0, S); continue; }
        long bestsum = 1L << 60;
        int nk = kind == 5 ? 5 : 1;
        for (int k = 0; k < nk; k++) {
            int t = kind == 5 ? k : kind;
            long sum = 0;
            for (int x = 0; x < W; x++) {
                int a = x ? row[x - 1] : 0, b = prev ? prev[x] : 0, c = (x && prev) ? prev[x - 1] : 0;
                int pred = t == 0 ? 0 : t == 1 ? a : t == 2 ? b : t == 3 ? (a + b) / 2 : paeth(a, b, c);
                uint8_t v = row[x] - pred; cand[x] = v; sum += v < 128 ? v : 256 - v;
            }
            if (sum < bestsum) { bestsum = sum; o[0] = t; memcpy(o + 1, cand, W); }
        }
    }
    free(cand);
}

static int len_sym[259], len_extra[259], dist_sym[32769], dist_extra[32769];
static void tables(void) {
    static const int lbase[29] = {3,4,5,6,7,8,9,10,11,13,15,17,19,23,27,31,35,43,51,59,67,83,99,115,131,163,195,227,258};
    static const int lext[29] = {0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,0};
    static const int dbase[30] = {1,2,3,4,5,7,9,13,17,25,33,49,65,97,129,193,257,385,513,769,1025,1537,2049,3073,4097,6145,8193,12289,16385,24577};
    for (int l = 3; l <= 258; l++) { int s = 0; for (int k = 0; k < 29; k++) if (lbase[k] <= l) s = k; len_sym[l] = 257 + s; len_extra[l] = lext[s]; }
    for (int d = 1; d <= 32768; d++) { int s = 0; for (int k = 0; k < 30; k++) if (dbase[k] <= d) s = k; dist_sym[d] = s; dist_extra[d] = s < 4 ? 0 : s / 2 - 1; }
}
static void huff_lengths(const long *freq, int n, int *len) {
    typedef struct { long f; int l, r; } node;
    node *nodes = malloc(sizeof(node) * 2 * n); int *leaves = malloc(sizeof(int) * n), nl = 0;
    for (int i = 0; i < n; i++) { len[i] = 0; if (freq[i]) leaves[nl++] = i; }
    if (nl <= 1) { if (nl) len[leaves[0]] = 1; free(nodes); free(leaves); return; }
    for (int i = 1; i < nl; i++) { int v = leaves[i], j = i; while (j > 0 && freq[leaves[j-1]] > freq[v]) { leaves[j] = leaves[j-1]; j--; } leaves[j] = v; }
    for (int i = 0; i < nl; i++) { nodes[i].f = freq[leaves[i]]; nodes[i].l = -1; nodes[i].r = leaves[i]; }
    int qa = 0, qb = nl, qe = nl;
    while ((nl - qa) + (qe - qb) > 1) {
        int p[2];
        for (int k = 0; k < 2; k++) p[k] = (qa < nl && (qb >= qe || nodes[qa].f <= nodes[qb].f)) ? qa++ : qb++;
        nodes[qe].f = nodes[p[0]].f + nodes[p[1]].f; nodes[qe].l = p[0]; nodes[qe].r = p[1]; qe++;
    }
    int *depth = calloc(qe, sizeof(int));
    for (int i = qe - 1; i >= nl; i--) { depth[nodes[i].l] = depth[i] + 1; depth[nodes[i].r] = depth[i] + 1; }
    for (int i = 0; i < nl; i++) len[nodes[i].r] = depth[i] > 15 ? 15 : depth[i];
    free(depth); free(nodes); free(leaves);
}

typedef struct { uint16_t len; uint16_t dist; uint8_t lit; } tok;
static long lf[286], df[30];
static double est_bytes(tok *t, int nt) {
    memset(lf, 0, sizeof lf); memset(df, 0, sizeof df);
    long extra = 0;
    for (int i = 0; i < nt; i++) {
        if (!t[i].len) lf[t[i].lit]++;
        else { lf[len_sym[t[i].len]]++; df[dist_sym[t[i].dist]]++; extra += len_extra[t[i].len] + dist_extra[t[i].dist]; }
    }
    lf[256] = 1;
    int ll[286], dl[30]; huff_lengths(lf, 286, ll); huff_lengths(df, 30, dl);
    long bits = extra;
    for (int i = 0; i < 286; i++) bits += lf[i] * ll[i];
    for (int i = 0; i < 30; i++) bits += df[i] * dl[i];
    int used = 0; for (int i = 0; i < 286; i++) used += lf[i] > 0; for (int i = 0; i < 30; i++) used += df[i] > 0;
    return bits / 8.0 + 40 + used * 0.4;
}
static float litc[256], lenc[259], distc[32769];
static void costs_from(tok *t, int nt) {
    est_bytes(t, nt);
    int ll[286], dl[30]; huff_lengths(lf, 286, ll); huff_lengths(df, 30, dl);
    long tot = 0; for (int i = 0; i < 286; i++) tot += lf[i];
    long dtot = 1; for (int i = 0; i < 30; i++) dtot += df[i];
    float miss = log2f(tot) + 2, dmiss = log2f(dtot) + 2;
    for (int i = 0; i < 256; i++) litc[i] = ll[i] ? ll[i] : miss;
    for (int l = 3; l <= 258; l++) lenc[l] = (ll[len_sym[l]] ? ll[len_sym[l]] : miss) + len_extra[l];
    for (int d = 1; d <= 32768; d++) distc[d] = (dl[dist_sym[d]] ? dl[dist_sym[d]] : dmiss) + dist_extra[d];
}
static void default_costs(void) {
    for (int i = 0; i < 256; i++) litc[i] = (i == 0) ? 2 : (i == 1 || i == 255) ? 3 : (i < 4 || i > 252) ? 6 : 10;
    for (int l = 3; l <= 258; l++) lenc[l] = 6 + len_extra[l];
    for (int d = 1; d <= 32768; d++) distc[d] = d <= 2 ? 2 : 6 + dist_extra[d];
}
static long probes;
static inline int matchlen(const uint8_t *a, const uint8_t *b, int max) {
    probes++;
    int l = 0;
    while (l + 8 <= max) { uint64_t x, y; memcpy(&x, a + l, 8); memcpy(&y, b + l, 8); if (x != y) return l + (__builtin_ctzll(x ^ y) >> 3); l += 8; }
    while (l < max && a[l] == b[l]) l++;
    return l;
}

// Candidates
static int ncand; static int cand[64]; static int userep, rep0 = 0, rep1 = 0;
static int hashlen, depth; static int *head, *prevc; static int hbits = 15;
static inline uint32_t hashat(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); v <<= (64 - 8 * hashlen); return (uint32_t)((v * 0x9E3779B97F4A7C15ull) >> (64 - hbits)); }
static inline void insert(const uint8_t *b, int i, int n) { if (!hashlen || i + 8 > n) return; uint32_t h = hashat(b + i); prevc[i & 32767] = head[h]; head[h] = i; }

// All matches at i: (dist, len) pairs, len >= 3; returns count
static int matches_at(const uint8_t *b, int i, int n, int *md, int *ml) {
    int max = n - i; if (max > 258) max = 258;
    int m = 0;
    if (max < 3) return 0;
    for (int k = 0; k < ncand; k++) {
        int d = cand[k]; if (d > i) continue;
        int l = matchlen(b + i, b + i - d, max);
        if (l >= 3) { md[m] = d; ml[m] = l; m++; }
    }
    if (userep) {
        int reps[2] = {rep0, rep1};
        for (int r = 0; r < userep; r++) { int d = reps[r]; if (d <= 2 || d > i) continue; int dup = 0; for (int k = 0; k < m; k++) if (md[k] == d) dup = 1; if (dup) continue;
            int l = matchlen(b + i, b + i - d, max); if (l >= 3) { md[m] = d; ml[m] = l; m++; } }
    }
    if (hashlen && max >= 8) {
        int c = head[hashat(b + i)], probes = depth;
        while (c >= 0 && probes-- > 0 && i - c <= 32768) {
            int d = i - c, dup = 0;
            for (int k = 0; k < m; k++) if (md[k] == d) dup = 1;
            if (!dup) { int l = matchlen(b + i, b + c, max); if (l >= 3) { md[m] = d; ml[m] = l; m++; } }
            c = prevc[c & 32767];
        }
    }
    return m;
}

// mode 0 greedy longest, 1 lazy cost-aware gain, 2 optimal DP
static float *cost, *prefix; static int *from_len, *from_dist;
static int parse(const uint8_t *b, int n, int mode, tok *t) {
    if (hashlen) for (int k = 0; k < (1 << hbits); k++) head[k] = -1;
    int md[128], ml[128];
    int nt = 0;
    prefix[0] = 0;
    for (int q = 0; q < n; q++) prefix[q + 1] = prefix[q] + litc[b[q]];
    if (mode == 2) {
        for (int i = 0; i <= n; i++) cost[i] = 1e30f;
        cost[0] = 0;
        for (int i = 0; i < n; i++) {
            float c0 = cost[i];
            if (c0 + litc[b[i]] < cost[i + 1]) { cost[i + 1] = c0 + litc[b[i]]; from_len[i + 1] = 0; }
            int m = matches_at(b, i, n, md, ml);
            insert(b, i, n);
            for (int k = 0; k < m; k++) {
                float dc = distc[md[k]];
                for (int l = 3; l <= ml[k]; l++) {
                    float c = c0 + lenc[l] + dc;
                    if (c < cost[i + l]) { cost[i + l] = c; from_len[i + l] = l; from_dist[i + l] = md[k]; }
                }
            }
        }
        // backtrack
        int i = n; int cnt = 0;
        while (i > 0) { int l = from_len[i]; i -= l ? l : 1; cnt++; }
        nt = cnt; i = n; int q = cnt;
        while (i > 0) { int l = from_len[i]; q--; if (l) { t[q].len = l; t[q].dist = from_dist[i]; i -= l; } else { t[q].len = 0; t[q].lit = b[i - 1]; i--; } }
        return nt;
    }
    int i = 0;
    while (i < n) {
        int m = matches_at(b, i, n, md, ml);
        insert(b, i, n);
        int bl = 0, bd = 0; float bg = 0;
        for (int k = 0; k < m; k++) {
            if (mode == 0) { if (ml[k] > bl) { bl = ml[k]; bd = md[k]; } }
            else {
                float lits = prefix[i + ml[k]] - prefix[i];
                float g = lits - lenc[ml[k]] - distc[md[k]];
                if (g > bg) { bg = g; bl = ml[k]; bd = md[k]; }
            }
        }
        if (bl && mode == 1 && i + 1 < n) {
            int m2 = matches_at(b, i + 1, n, md, ml);
            float bg2 = 0; int bl2 = 0, bd2 = 0;
            for (int k = 0; k < m2; k++) {
                float lits = prefix[i + 1 + ml[k]] - prefix[i + 1];
                float g = lits - lenc[ml[k]] - distc[md[k]];
                if (g > bg2) { bg2 = g; bl2 = ml[k]; bd2 = md[k]; }
            }
            if (bg2 - litc[b[i]] > bg) {
                t[nt].len = 0; t[nt].lit = b[i]; nt++; i++; insert(b, i, n);
                bl = bl2; bd = bd2;
            }
        }
        if (bl && bd > 2 && bd != rep0) { rep1 = rep0; rep0 = bd; }
        if (bl) { t[nt].len = bl; t[nt].dist = bd; nt++; for (int k = i + 1; k < i + bl; k++) insert(b, k, n); i += bl; }
        else { t[nt].len = 0; t[nt].lit = b[i]; nt++; i++; }
    }
    return nt;
}

int main(int argc, char **argv) {
    tables();
    if (argc < 5) { fprintf(stderr, "usage: png_lazy_model TILE.idx RGBA_BYTES PALETTE_COUNT SPEC...\n"); return 2; }
    FILE *f = fopen(argv[1], "rb"); uint32_t hd[2];
    if (!f || fread(hd, 4, 2, f) != 2) { fprintf(stderr, "%s: unreadable\n", argv[1]); return 1; }
    W = hd[0]; H = hd[1]; N = W * H; S = W + 1;
    idx = malloc(N);
    if (fread(idx, 1, N, f) != (size_t)N) { fprintf(stderr, "%s: short\n", argv[1]); return 1; }
    fclose(f);
    int rgba = atoi(argv[2]), pal = atoi(argv[3]);
    int headb = 8 + 25 + 12 + 3 * pal + 12 + pal + 12 + 12 + 6;  // signature, IHDR, PLTE, tRNS, IDAT, IEND, zlib
    int n = S * H;
    uint8_t *fb = malloc(n + 16); tok *t = malloc(sizeof(tok) * (n + 1));
    head = malloc(sizeof(int) << hbits); prevc = malloc(sizeof(int) * 32768);
    cost = malloc(sizeof(float) * (n + 1)); prefix = malloc(sizeof(float) * (n + 1)); from_len = malloc(sizeof(int) * (n + 1)); from_dist = malloc(sizeof(int) * (n + 1));
    for (int a = 4; a < argc; a++) {
        int fk, mode, set; userep = 0;
        if (sscanf(argv[a], "%d:%d:%d:%d:%d:%d", &fk, &mode, &hashlen, &depth, &set, &userep) < 5) continue;
        ncand = 0; cand[ncand++] = 1; cand[ncand++] = 2;
        if (set >= 1 && set < 100) for (int j = -set; j <= set; j++) cand[ncand++] = S + j;
        if (set >= 100) for (int j = -(set - 100); j <= set - 100; j++) { cand[ncand++] = S + j; cand[ncand++] = 2 * S + j; }
        filter_rows(fk, fb); memset(fb + n, 0, 16);
        // Costs: a first parse at rough costs, then its code lengths (as a block's codes would be).
        default_costs(); rep0 = rep1 = 0;
        int nt = parse(fb, n, mode == 2 ? 1 : mode, t);
        costs_from(t, nt);
        double best = 1e9;
        long p = 0;
        for (int r = 0; r < (mode == 2 ? 1 : 15); r++) {
            probes = 0; rep0 = rep1 = 0;
            double t0 = now();
            nt = parse(fb, n, mode, t);
            double dt = now() - t0;
            if (dt < best) best = dt;
            p = probes;
        }
        double bytes = est_bytes(t, nt);
        printf("{\"spec\": \"%s\", \"streamBytes\": %.0f, \"fileBytes\": %.0f, \"ratioToRGBA\": %.4f, "
               "\"parseMs\": %.3f, \"comparisonsPerByte\": %.2f, \"tokens\": %d}\n",
               argv[a], bytes, bytes + headb, (bytes + headb) / rgba, best * 1000, (double)p / n, nt);
    }
    return 0;
}
