/* SPDX-License-Identifier: MIT */
/* The device timeline's flow arrows come from a flow cursor that makes a pass
 * of its own over the profile (instructions, DMA packets, semaphore updates),
 * about as costly as the timeline's pass.  A feed runs that cursor on a thread
 * of its own when more than one CPU may be used (nxp__fanout_threads():
 * NXP_THREADS, else the online CPUs), so the two passes overlap; otherwise it
 * calls the cursor in line.  Either way the consumer sees exactly the sequence
 * nxp_flow_cursor_next() returns, its final code included, so the trace is the
 * same bytes.
 *
 * Edges cross in batches (FEED_BATCH edges) through a ring of FEED_SLOTS
 * batches: memory is bounded whatever the trace, and the producer waits when
 * the consumer is FEED_SLOTS batches behind.  A profile may be read by cursors
 * on several threads at once (include/nxp/ntff.h, "Threads"). */
#include "timeline_priv.h"

#include "pool.h"
#include "status.h"

#include <pthread.h>
#include <stdlib.h>

#define FEED_BATCH 2048u
#define FEED_SLOTS 4u

struct tl_flow_feed {
	nxp_flow_cursor *fc;
	int threaded;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t can_put, can_get;
	nxp_flow *buf;               /* FEED_SLOTS * FEED_BATCH edges */
	uint32_t n[FEED_SLOTS];      /* edges in each batch */
	int end[FEED_SLOTS];         /* the cursor's code after a batch's edges: 0 = more follow */
	unsigned made, taken;        /* batches made by the producer, released by the consumer */
	int stop;                    /* the consumer is closing: the producer ends */
	/* the consumer's side */
	int have;                    /* it holds batch `taken % FEED_SLOTS` */
	uint32_t pos;
};

static void *produce(void *arg)
{
	tl_flow_feed *f = arg;
	for (;;) {
		pthread_mutex_lock(&f->mu);
		while (f->made - f->taken == FEED_SLOTS && !f->stop)
			pthread_cond_wait(&f->can_put, &f->mu);
		int stop = f->stop;
		pthread_mutex_unlock(&f->mu);
		if (stop)
			return NULL;
		/* the slot is the producer's until `made` moves past it */
		unsigned s = f->made % FEED_SLOTS;
		nxp_flow *b = f->buf + (size_t)s * FEED_BATCH;
		uint32_t n = 0;
		int rc = NXP_OK;
		while (n < FEED_BATCH) {
			b[n].struct_size = sizeof(b[n]);
			if ((rc = nxp_flow_cursor_next(f->fc, &b[n])) != NXP_OK)
				break;
			n++;
		}
		f->n[s] = n;
		f->end[s] = rc;
		pthread_mutex_lock(&f->mu);
		f->made++;
		pthread_cond_signal(&f->can_get);
		pthread_mutex_unlock(&f->mu);
		if (rc != NXP_OK)
			return NULL; /* NXP_END or an error: the last batch says which */
	}
}

int nxp__tl_flow_feed_open(tl_flow_feed **out, nxp_profile *p, nxp_status *st)
{
	*out = NULL;
	tl_flow_feed *f = calloc(1, sizeof(*f));
	if (!f)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	int rc = nxp_flow_cursor_open(&f->fc, p, NULL, st);
	if (rc) {
		free(f);
		return rc;
	}
	if (nxp__fanout_threads() > 1 && (f->buf = malloc((size_t)FEED_SLOTS * FEED_BATCH * sizeof(nxp_flow)))) {
		pthread_mutex_init(&f->mu, NULL);
		pthread_cond_init(&f->can_put, NULL);
		pthread_cond_init(&f->can_get, NULL);
		if (pthread_create(&f->th, NULL, produce, f) == 0) {
			f->threaded = 1;
		} else { /* no thread: in line */
			pthread_cond_destroy(&f->can_get);
			pthread_cond_destroy(&f->can_put);
			pthread_mutex_destroy(&f->mu);
			free(f->buf);
			f->buf = NULL;
		}
	}
	*out = f;
	return NXP_OK;
}

int nxp__tl_flow_feed_next(tl_flow_feed *f, nxp_flow *e)
{
	if (!f->threaded)
		return nxp_flow_cursor_next(f->fc, e);
	for (;;) {
		if (f->have) {
			unsigned s = f->taken % FEED_SLOTS;
			if (f->pos < f->n[s]) {
				*e = f->buf[(size_t)s * FEED_BATCH + f->pos++];
				return NXP_OK;
			}
			if (f->end[s] != NXP_OK)
				return f->end[s]; /* the cursor's last word, again on every call as the cursor does */
			pthread_mutex_lock(&f->mu);
			f->taken++;
			f->have = 0;
			pthread_cond_signal(&f->can_put);
			pthread_mutex_unlock(&f->mu);
		}
		pthread_mutex_lock(&f->mu);
		while (f->made == f->taken)
			pthread_cond_wait(&f->can_get, &f->mu);
		pthread_mutex_unlock(&f->mu);
		f->have = 1;
		f->pos = 0;
	}
}

void nxp__tl_flow_feed_close(tl_flow_feed *f)
{
	if (!f)
		return;
	if (f->threaded) {
		pthread_mutex_lock(&f->mu);
		f->stop = 1;
		pthread_cond_signal(&f->can_put);
		pthread_mutex_unlock(&f->mu);
		pthread_join(f->th, NULL);
		pthread_cond_destroy(&f->can_get);
		pthread_cond_destroy(&f->can_put);
		pthread_mutex_destroy(&f->mu);
		free(f->buf);
	}
	nxp_flow_cursor_close(f->fc);
	free(f);
}
