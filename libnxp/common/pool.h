/* SPDX-License-Identifier: MIT */
/* A small fixed-size thread pool (internal; not part of the public API).
 *
 *   nxp_pool *pool;
 *   nxp_pool_new(&pool, 4, 8);          4 worker threads, at most 8 tasks in flight
 *   nxp_pool_submit(pool, fn, arg);      blocks while 8 tasks are queued or running
 *   nxp_pool_wait(pool);                 until every submitted task has returned
 *   nxp_pool_free(pool);                 waits, then joins the workers
 *
 * Tasks start in submission order (FIFO).  The bound on tasks in flight keeps
 * memory flat when a producer submits faster than the workers finish (one
 * task per profile of a capture, say): the submitter sleeps instead of queuing
 * without limit.  A task must not submit to, or wait on, its own pool.
 * Tasks that must run at the same time (one feeding another through a bounded
 * channel) need at least as many workers as there are such tasks.
 * submit/wait/free are for one controlling thread; tasks run on the workers.
 * nxp_pool_wait() and _free() give the happens-before edge: everything a task
 * wrote is visible to the caller once they return. */
#ifndef NXP_COMMON_POOL_H
#define NXP_COMMON_POOL_H

typedef struct nxp_pool nxp_pool;

/* Number of online CPUs (at least 1). */
unsigned nxp_cpu_count(void);
/* The width of work fanned out on the library's own initiative (capture
 * comparison, export tables, the timeline's flow thread): the NXP_THREADS
 * environment variable when it holds a count > 0 (at most 1024), else
 * nxp_cpu_count(). */
unsigned nxp__fanout_threads(void);

/* workers: threads to start (0 = nxp_cpu_count()); max_inflight: tasks queued
 * or running at once (0 = 2 x workers; fewer than workers caps concurrency).
 * NXP_OK, NXP_E_INVAL, NXP_E_NOMEM (or a thread could not be started). */
int nxp_pool_new(nxp_pool **out, unsigned workers, unsigned max_inflight);
unsigned nxp_pool_workers(const nxp_pool *p);
/* Queue fn(arg); blocks while max_inflight tasks are queued or running.
 * NXP_OK, NXP_E_INVAL (NULL pool or fn). */
int nxp_pool_submit(nxp_pool *p, void (*fn)(void *), void *arg);
/* Until every task submitted so far has returned. */
void nxp_pool_wait(nxp_pool *p);
/* Wait, stop and join the workers, free the pool (NULL is fine). */
void nxp_pool_free(nxp_pool *p);

#endif
