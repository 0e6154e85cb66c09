/* A timing harness for Simon Tatham's Slant solver, written for boardsweep's
 * benchmarks/slant_tatham.py.  It contains none of his code: it is compiled with his slant.c
 * #included (from his source tree, outside this project) and calls his generator and solver
 * in-process.
 *
 *   harness gen W H e|h COUNT SEED     print COUNT of his W x H game IDs of that level
 *   harness time REPEATS < ids         time his grading solve of every game ID read
 *
 * "time" parses every ID first (untimed), makes one solver scratch per size (untimed), then
 * solves each puzzle as his standalone solver grades it: slant_solve at Easy, then at Hard
 * if Easy stalls.  It prints, per puzzle, "ns verdict level solution": the median CPU
 * nanoseconds of REPEATS timed solves, his verdict (0 none, 1 solved, 2 stalled), the level
 * that solved it (e or h, or - if none) and his slashes (\ or /, row-major).  A last line
 * "batch NS" gives CPU nanoseconds per puzzle of one untimed-inside pass over all puzzles,
 * the way a batch runs.
 */
#define main tatham_standalone_main
#include "slant.c"
#undef main

#include <time.h>

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static int grade(const game_params *p, const signed char *clues, signed char *soln,
                 struct solver_scratch *sc, int *level)
{
    int ret = 2, diff;
    for (diff = 0; diff < DIFFCOUNT; diff++) {
        ret = slant_solve(p->w, p->h, clues, soln, sc, diff);
        if (ret < 2)
            break;
    }
    *level = diff;
    return ret;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int run_gen(char **argv)
{
    game_params p;
    p.w = atoi(argv[0]);
    p.h = atoi(argv[1]);
    p.diff = argv[2][0] == 'h' ? DIFF_HARD : DIFF_EASY;
    int n = atoi(argv[3]);
    random_state *rs = random_new(argv[4], strlen(argv[4]));
    for (int i = 0; i < n; i++) {
        char *aux;
        char *desc = new_game_desc(&p, rs, &aux, false);
        printf("%dx%d:%s\n", p.w, p.h, desc);
        sfree(desc);
        sfree(aux);
    }
    random_free(rs);
    return 0;
}

static int run_time(int repeats)
{
    int cap = 1024, n = 0;
    game_state **games = malloc(cap * sizeof *games);
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *desc = strchr(line, ':');
        if (!desc)
            continue;
        *desc++ = '\0';
        game_params *p = default_params();
        decode_params(p, line);
        const char *err = validate_desc(p, desc);
        if (err) {
            fprintf(stderr, "bad game id %s: %s\n", line, err);
            return 1;
        }
        if (n == cap)
            games = realloc(games, (cap *= 2) * sizeof *games);
        games[n++] = new_game(NULL, p, desc);
        free_params(p);
    }
    struct solver_scratch *sc = NULL;
    int sw = -1, sh = -1;
    double *t = malloc((repeats > 0 ? repeats : 1) * sizeof *t);
    for (int k = 0; k < n; k++) {
        game_state *s = games[k];
        if (s->p.w != sw || s->p.h != sh) {
            if (sc)
                free_scratch(sc);
            sc = new_scratch(s->p.w, s->p.h);
            sw = s->p.w;
            sh = s->p.h;
        }
        int level = 0, ret = 0;
        for (int r = 0; r < repeats; r++) {
            double t0 = cpu_ns();
            ret = grade(&s->p, s->clues->clues, s->soln, sc, &level);
            t[r] = cpu_ns() - t0;
        }
        qsort(t, repeats, sizeof *t, cmp_double);
        printf("%.0f %d %c ", repeats > 0 ? t[repeats / 2] : 0.0, ret,
               ret == 1 ? slant_diffchars[level] : '-');
        for (int i = 0; i < s->p.w * s->p.h; i++)
            putchar(ret == 1 ? (s->soln[i] < 0 ? '\\' : '/') : '.');
        putchar('\n');
    }
    /* the batch: every puzzle once, one clock around the whole pass */
    double t0 = cpu_ns();
    for (int k = 0; k < n; k++) {
        game_state *s = games[k];
        if (s->p.w != sw || s->p.h != sh) {
            free_scratch(sc);
            sc = new_scratch(s->p.w, s->p.h);
            sw = s->p.w;
            sh = s->p.h;
        }
        int level;
        grade(&s->p, s->clues->clues, s->soln, sc, &level);
    }
    printf("batch %.1f\n", n ? (cpu_ns() - t0) / n : 0.0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 7 && !strcmp(argv[1], "gen"))
        return run_gen(argv + 2);
    if (argc >= 3 && !strcmp(argv[1], "time"))
        return run_time(atoi(argv[2]));
    fprintf(stderr, "usage: %s gen W H e|h COUNT SEED | %s time REPEATS < ids\n",
            argv[0], argv[0]);
    return 2;
}
