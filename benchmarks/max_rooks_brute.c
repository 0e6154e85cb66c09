/* Plain brute force for the exact distribution of the walled-board maximum: every one of the
 * 2^(R*C) wall patterns, no symmetry, the maximum of each by augmenting paths (Kuhn) between
 * its row segments and column segments.  Shares no code with boardsweep's dynamic program:
 * benchmarks/max_rooks_exact.py uses it as the baseline and as a second method.
 *
 *   cc -O3 -march=native -o max_rooks_brute max_rooks_brute.c && ./max_rooks_brute 5 5
 *
 * Prints one line "walls max boards" per nonzero histogram cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int R, C, N;
static int rowseg[64], colseg[64];
static int adj[64][64], deg[64];
static int match_col[64], seen[64], stamp;

static int augment(int r) {
    for (int k = 0; k < deg[r]; k++) {
        int c = adj[r][k];
        if (seen[c] == stamp) continue;
        seen[c] = stamp;
        if (match_col[c] < 0 || augment(match_col[c])) {
            match_col[c] = r;
            return 1;
        }
    }
    return 0;
}

static int max_rooks(unsigned long long walls) {
    int nr = 0, nc = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int t = i * C + j;
            if (walls >> t & 1) continue;
            rowseg[t] = (j > 0 && !(walls >> (t - 1) & 1)) ? rowseg[t - 1] : nr++;
            colseg[t] = (i > 0 && !(walls >> (t - C) & 1)) ? colseg[t - C] : nc++;
        }
    for (int r = 0; r < nr; r++) deg[r] = 0;
    for (int t = 0; t < N; t++)
        if (!(walls >> t & 1)) adj[rowseg[t]][deg[rowseg[t]]++] = colseg[t];
    for (int c = 0; c < nc; c++) match_col[c] = -1;
    int size = 0;
    for (int r = 0; r < nr; r++) {
        stamp++;
        size += augment(r);
    }
    return size;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s ROWS COLS\n", argv[0]);
        return 2;
    }
    R = atoi(argv[1]);
    C = atoi(argv[2]);
    N = R * C;
    if (R < 1 || C < 1 || N > 40) {
        fprintf(stderr, "rows x cols must be 1..40 cells\n");
        return 2;
    }
    static unsigned long long hist[41][41];
    memset(seen, 0, sizeof seen);
    for (unsigned long long p = 0; p < (1ULL << N); p++)
        hist[__builtin_popcountll(p)][max_rooks(p)]++;
    for (int w = 0; w <= N; w++)
        for (int m = 0; m <= N; m++)
            if (hist[w][m]) printf("%d %d %llu\n", w, m, hist[w][m]);
    return 0;
}
