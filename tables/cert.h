/* cert.h: certificates: a claimed outcome of a root position and a set of claimed losses from which it
 * follows without search (Lemoine and Viennot's databases of losing couples).
 *
 * Contract:
 * - Normal play: a fact is a land L with a claimed nimber g, i.e. the couple (L, g) = L + *g is lost;
 *   by the Sprague-Grundy theorem any position whose lands all have facts is then a claimed loss
 *   beside a heap of the XOR of their nimbers. Misère play: a fact is a whole position claimed lost.
 * - The file is a store (store.h) of kind SP_STORE_CERTIFICATE; loading never trusts it: verify.h
 *   decides whether the facts prove the claim.
 */
#ifndef SP_CERT_H
#define SP_CERT_H

#include <stddef.h>
#include <stdint.h>

#include "moves.h"

enum { SP_CERT_NORMAL = 0, SP_CERT_MISERE = 1 };
enum { SP_CERT_LOSS = 0, SP_CERT_WIN = 1 };

typedef struct sp_cert {
    int play;            /* SP_CERT_NORMAL or SP_CERT_MISERE */
    unsigned spots;      /* the root is 0*spots, or 0 for another root */
    int outcome;         /* claimed for the player to move at the root */
    sp_tok *root;
    size_t root_len;
    sp_children facts;   /* the fact keys (lands, or whole positions in misère play), without repeats */
    uint32_t *nimber;    /* normal play: claimed nimber of each fact */
    size_t nimber_cap;
} sp_cert;

int sp_cert_init(sp_cert *c, int play, unsigned spots, const sp_tok *root, size_t len, int outcome);
void sp_cert_free(sp_cert *c);

/* Adds a fact (nimber is ignored in misère play); returns its index, or -1 when out of memory. A fact
 * already there keeps its first nimber. */
long sp_cert_add(sp_cert *c, const sp_tok *key, size_t len, uint32_t nimber);
long sp_cert_find(const sp_cert *c, const sp_tok *key, size_t len);

int sp_cert_save(const sp_cert *c, const char *path, char *err, size_t errcap);
/* Loads a certificate; a malformed one is rejected with a reason (never half-loaded). */
int sp_cert_load(sp_cert *c, const char *path, char *err, size_t errcap);

#endif
