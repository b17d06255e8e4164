/* SPDX-License-Identifier: MIT */
/* A small fixed-size thread pool: a FIFO ring of max_inflight slots guarded by
 * one mutex, three condition variables (work queued, room to submit, idle). */
#include "pool.h"

#include <nxp/common.h>

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct task {
	void (*fn)(void *);
	void *arg;
} task;

struct nxp_pool {
	pthread_mutex_t m;
	pthread_cond_t work, room, idle;
	task *ring;
	unsigned cap, head, queued, running;
	int stop;
	pthread_t *th;
	unsigned nth;
};

unsigned nxp_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1u : n > 1024 ? 1024u : (unsigned)n;
}

unsigned nxp__fanout_threads(void)
{
	const char *e = getenv("NXP_THREADS");
	char *end;
	long v = e && *e ? strtol(e, &end, 10) : 0;
	if (!e || !*e || *end || v <= 0)
		return nxp_cpu_count();
	return v > 1024 ? 1024 : (unsigned)v;
}

static void *worker(void *vp)
{
	nxp_pool *p = vp;
	pthread_mutex_lock(&p->m);
	for (;;) {
		while (!p->queued && !p->stop)
			pthread_cond_wait(&p->work, &p->m);
		if (!p->queued)
			break; /* stop, nothing left */
		task t = p->ring[p->head];
		p->head = (p->head + 1) % p->cap;
		p->queued--;
		p->running++;
		pthread_mutex_unlock(&p->m);
		t.fn(t.arg);
		pthread_mutex_lock(&p->m);
		p->running--;
		pthread_cond_signal(&p->room);
		if (!p->queued && !p->running)
			pthread_cond_broadcast(&p->idle);
	}
	pthread_mutex_unlock(&p->m);
	return NULL;
}

int nxp_pool_new(nxp_pool **out, unsigned workers, unsigned max_inflight)
{
	if (!out)
		return NXP_E_INVAL;
	*out = NULL;
	if (!workers)
		workers = nxp_cpu_count();
	if (!max_inflight)
		max_inflight = 2 * workers;
	nxp_pool *p = calloc(1, sizeof(*p));
	if (!p)
		return NXP_E_NOMEM;
	p->cap = max_inflight;
	p->ring = calloc(p->cap, sizeof(*p->ring));
	p->th = calloc(workers, sizeof(*p->th));
	if (!p->ring || !p->th) {
		free(p->ring);
		free(p->th);
		free(p);
		return NXP_E_NOMEM;
	}
	pthread_mutex_init(&p->m, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->room, NULL);
	pthread_cond_init(&p->idle, NULL);
	for (; p->nth < workers; p->nth++)
		if (pthread_create(&p->th[p->nth], NULL, worker, p) != 0) {
			nxp_pool_free(p);
			return NXP_E_NOMEM;
		}
	*out = p;
	return NXP_OK;
}

unsigned nxp_pool_workers(const nxp_pool *p)
{
	return p ? p->nth : 0;
}

int nxp_pool_submit(nxp_pool *p, void (*fn)(void *), void *arg)
{
	if (!p || !fn)
		return NXP_E_INVAL;
	pthread_mutex_lock(&p->m);
	while (p->queued + p->running >= p->cap)
		pthread_cond_wait(&p->room, &p->m);
	p->ring[(p->head + p->queued) % p->cap] = (task){fn, arg};
	p->queued++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->m);
	return NXP_OK;
}

void nxp_pool_wait(nxp_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->m);
	while (p->queued || p->running)
		pthread_cond_wait(&p->idle, &p->m);
	pthread_mutex_unlock(&p->m);
}

void nxp_pool_free(nxp_pool *p)
{
	if (!p)
		return;
	nxp_pool_wait(p);
	pthread_mutex_lock(&p->m);
	p->stop = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->m);
	for (unsigned k = 0; k < p->nth; k++)
		pthread_join(p->th[k], NULL);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->idle);
	pthread_mutex_destroy(&p->m);
	free(p->ring);
	free(p->th);
	free(p);
}
