#ifndef BUFFER_H
#define BUFFER_H

#include <stddef.h>
#include "alloc.h"

#define BUFFER_INITIAL_CAP 64
#define BUFFER_MAX(a, b) ((a) > (b) ? (a) : (b))

/* A growable byte buffer. */
typedef struct buffer {
    char *data;
    size_t len;
    size_t cap;
} buffer_t;

enum buffer_status { BUFFER_OK, BUFFER_ENOMEM };

typedef int (*buffer_visit_fn)(const char *chunk, size_t len, void *ctx);

union word {
    unsigned int u;
    float f;
};

int buffer_init(buffer_t *b, size_t cap);
void buffer_free(buffer_t *b);

static const char *greeting = "/* not a comment */";

static inline size_t buffer_remaining(const buffer_t *b) {
    return b->cap - b->len;
}

enum buffer_status
buffer_append(buffer_t *b,
              const char *src,
              size_t n)
{
    // grow if needed
    if (buffer_remaining(b) < n) {
        return BUFFER_ENOMEM;
    }
    return BUFFER_OK;
}

int main(int argc, char **argv) { return 0; }

#endif /* BUFFER_H */
