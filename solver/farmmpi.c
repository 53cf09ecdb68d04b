/* farmmpi.c: the farm across machines (farm.h, farmrun.h): rank 0 leads, every other rank serves jobs
 * with a solver of its own; messages are packed farm messages. Stubs in a build without MPI.
 * While a job runs, a second thread of the worker rank listens for its call-back (MPI at the level
 * MPI_THREAD_SERIALIZED: the rank's main thread makes no MPI call until that thread has ended).
 * For the tests of lost workers only: SPROUTS_TEST_RANK_DIES=R:N in the environment has rank R kill
 * itself (SIGKILL) when its Nth job comes. */
#include "farm.h"
#include "farmrun.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

#include "sp_config.h"

#if SP_HAVE_MPI
#include <mpi.h>

enum { TAG_CONFIG = 1, TAG_JOB, TAG_RESULT, TAG_QUIT, TAG_CANCEL };

static int world = 1, me = 0;
static bool started, listens; /* listens: MPI lets a worker rank's second thread call it */
static bool *forgotten; /* per rank: taken for dead by the leader */
static uint32_t *posted;  /* the leader's, per rank: jobs sent to it (the last one's number) */

unsigned sp_farm_mpi_ranks(void) { return (unsigned)world; }

/* Under mpirun (Open MPI or a PMI launcher says so in the environment) MPI starts; a plain run
 * stays a plain process and never touches MPI. */
static bool under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

static bool recv_bytes(int source, int tag, uint8_t **buf, size_t *cap, int *len, MPI_Status *st)
{
    MPI_Probe(source, tag, MPI_COMM_WORLD, st);
    MPI_Get_count(st, MPI_BYTE, len);
    if (*len < 0 || ((size_t)*len > *cap && !(*buf = realloc(*buf, (*cap = (size_t)*len + 1)))))
        return false;
    MPI_Recv(*buf, *len, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return true;
}

/* The job on which this rank is to die (tests), or 0. */
static unsigned dies_at(void)
{
    const char *e = getenv("SPROUTS_TEST_RANK_DIES");
    unsigned r, n;
    return e && sscanf(e, "%u:%u", &r, &n) == 2 && (int)r == me ? n : 0;
}

/* Whether some rank was taken for dead: MPI_Finalize would wait for it, now and then for ever (Open
 * MPI 4.1 with recovery on), so the live workers leave without it and the leader ends the job. */
static bool any_forgotten(void)
{
    for (int r = 1; forgotten && r < world; r++)
        if (forgotten[r])
            return true;
    return false;
}

/* What a worker rank's listening thread needs: the solver whose search a call-back interrupts, and
 * the number of the job it runs (a call-back names its job: one for an earlier job comes late). */
typedef struct listener {
    sp_solver *s;
    uint32_t job;
    atomic_bool done; /* the job has ended: the thread returns */
} listener;

/* Polls for a call-back, sleeping longer each time up to a millisecond (a blocking receive could
 * not be left when the job ends by itself). */
static void *listen_main(void *arg)
{
    listener *l = arg;
    for (long ns = 1000; !atomic_load(&l->done); ns = ns < 1000000 ? 2 * ns : ns) {
        MPI_Status st;
        int flag = 0;
        if (MPI_Iprobe(0, TAG_CANCEL, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
            return NULL;
        if (!flag) {
            nanosleep(&(struct timespec){0, ns}, NULL);
            continue;
        }
        uint32_t job = 0;
        MPI_Recv(&job, (int)sizeof job, MPI_BYTE, 0, TAG_CANCEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (job == l->job) {
            sp_solver_interrupt(l->s);
            return NULL;
        }
    }
    return NULL;
}

/* Runs job number `job` on s, listening meanwhile for its call-back when MPI allows. */
static void run_job(sp_farm_msg *m, sp_solver *s, uint32_t job)
{
    listener l = {s, job, false};
    pthread_t t;
    bool listening = listens && pthread_create(&t, NULL, listen_main, &l) == 0;
    sp_farm_msg_run(m, s);
    atomic_store(&l.done, true);
    if (listening)
        pthread_join(t, NULL);
}

/* A worker rank: a CONFIG (the solver's budgets) makes its solver anew, a JOB is run and answered,
 * a CANCEL that comes after its job ended is dropped, QUIT ends it; false when the QUIT says a rank
 * was lost (then no MPI_Finalize). */
static bool serve(void)
{
    unsigned jobs = 0, die = dies_at();
    bool finalize = true;
    sp_solver *s = NULL;
    sp_farm_msg m = {0};
    uint8_t *buf = NULL;
    size_t cap = 0;
    for (;;) {
        MPI_Status st;
        int len;
        if (!recv_bytes(0, MPI_ANY_TAG, &buf, &cap, &len, &st))
            break;
        if (st.MPI_TAG == TAG_QUIT) {
            finalize = !(len == 1 && buf[0] == 1);
            break;
        }
        if (st.MPI_TAG == TAG_CONFIG && len == 3 * (int)sizeof(uint64_t)) {
            uint64_t b[3];
            memcpy(b, buf, sizeof b);
            sp_solver_free(s);
            sp_solver_opts o = {.tt_bytes = b[0], .nim_bytes = b[1],
                                .threads = b[2] >= 1 && b[2] <= 1024 ? (unsigned)b[2] : 1};
            s = sp_solver_new(&o);
            continue;
        }
        if (st.MPI_TAG == TAG_CANCEL)
            continue;
        if (st.MPI_TAG == TAG_JOB && ++jobs == die)
            raise(SIGKILL);
        if (st.MPI_TAG != TAG_JOB || !sp_farm_msg_unpack(&m, buf, (size_t)len)) {
            m.failed = true; /* a garbled job: the leader is told, and gives up */
        } else if (!s) {
            m.failed = true;
        } else {
            run_job(&m, s, jobs);
        }
        size_t n = sp_farm_msg_pack(&m, &buf, &cap);
        MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
    sp_solver_free(s);
    sp_farm_msg_free(&m);
    free(buf);
    return finalize;
}

bool sp_farm_mpi_start(int *argc, char ***argv)
{
    if (!under_mpirun())
        return false;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return false;
    started = true;
    listens = provided >= MPI_THREAD_SERIALIZED;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* a dead rank is the leader's to handle */
    forgotten = calloc((size_t)world, sizeof *forgotten);
    posted = calloc((size_t)world, sizeof *posted);
    if (me == 0)
        return false;
    if (serve())
        MPI_Finalize();
    return true;
}

void sp_farm_mpi_end(void)
{
    if (!started)
        return;
    uint8_t lost = any_forgotten();
    if (me == 0)
        for (int r = 1; r < world; r++)
            if (!forgotten || !forgotten[r])
                MPI_Send(&lost, 1, MPI_BYTE, r, TAG_QUIT, MPI_COMM_WORLD);
    if (lost) { /* a rank taken for dead may live on, stuck sending a late result: end them all */
        fflush(NULL);
        MPI_Abort(MPI_COMM_WORLD, 0);
    }
    MPI_Finalize();
    free(forgotten), free(posted);
    forgotten = NULL, posted = NULL;
    started = false;
}

static uint8_t *out_buf, *in_buf;
static size_t out_cap, in_cap;

bool sp_farm_mpi_configure(const sp_solver_opts *wopts)
{
    uint64_t b[3] = {wopts->tt_bytes ? wopts->tt_bytes : sp_solver_default_tt_bytes(), wopts->nim_bytes,
                     wopts->threads ? wopts->threads : 1};
    for (int r = 1; r < world; r++)
        if (MPI_Send(b, (int)sizeof b, MPI_BYTE, r, TAG_CONFIG, MPI_COMM_WORLD) != MPI_SUCCESS)
            return false;
    return world > 1;
}

bool sp_farm_mpi_post(unsigned worker, const sp_farm_msg *job)
{
    size_t n = sp_farm_msg_pack(job, &out_buf, &out_cap);
    if (posted && (int)worker + 1 < world)
        posted[worker + 1]++; /* the worker counts its jobs alike */
    return n && MPI_Send(out_buf, (int)n, MPI_BYTE, (int)worker + 1, TAG_JOB, MPI_COMM_WORLD) == MPI_SUCCESS;
}

/* Every rank starts MPI alike, so the leader's level is the workers'. */
bool sp_farm_mpi_cancel(unsigned worker)
{
    int r = (int)worker + 1;
    if (!listens || !posted || r >= world || (forgotten && forgotten[r]))
        return false;
    return MPI_Send(&posted[r], (int)sizeof *posted, MPI_BYTE, r, TAG_CANCEL, MPI_COMM_WORLD) == MPI_SUCCESS;
}

/* Polls, sleeping longer each time up to a millisecond: a blocking probe would wait for ever on a
 * dead rank, and a busy one would take a core from the workers. */
int sp_farm_mpi_wait(sp_farm_msg *res, unsigned *worker, double seconds)
{
    MPI_Status st;
    int len, flag = 0;
    double until = sp_clock_now() + seconds;
    for (long ns = 1000; MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && !flag;
         ns = ns < 1000000 ? 2 * ns : ns) {
        if (sp_clock_now() >= until)
            return 0;
        nanosleep(&(struct timespec){0, ns}, NULL);
    }
    if (!flag || !recv_bytes(st.MPI_SOURCE, TAG_RESULT, &in_buf, &in_cap, &len, &st))
        return -1;
    *worker = (unsigned)st.MPI_SOURCE - 1;
    return sp_farm_msg_unpack(res, in_buf, (size_t)len) ? 1 : -1;
}

void sp_farm_mpi_forget(unsigned worker)
{
    if (forgotten && (int)worker + 1 < world)
        forgotten[worker + 1] = true;
}

#else

unsigned sp_farm_mpi_ranks(void) { return 1; }
bool sp_farm_mpi_start(int *argc, char ***argv) { (void)argc, (void)argv; return false; }
void sp_farm_mpi_end(void) {}
bool sp_farm_mpi_configure(const sp_solver_opts *wopts) { (void)wopts; return false; }
bool sp_farm_mpi_post(unsigned worker, const sp_farm_msg *job) { (void)worker, (void)job; return false; }
bool sp_farm_mpi_cancel(unsigned worker) { (void)worker; return false; }
int sp_farm_mpi_wait(sp_farm_msg *res, unsigned *worker, double seconds)
{
    (void)res, (void)worker, (void)seconds;
    return -1;
}
void sp_farm_mpi_forget(unsigned worker) { (void)worker; }

#endif
