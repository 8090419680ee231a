// SPDX-License-Identifier: GPL-2.0
// mrc_mpi_apps: the MPI job of the apps selftests (82-apps-mpi): an
// ordinary MPI program, run by an unmodified Open MPI (mpirun, the TCP
// BTL) with one rank per host of the reference fabric.
//
//   mrc_mpi_apps [--iters N] [--count M] [--out FILE] [--progress FILE]
//                [--stop FILE]
//
// Every iteration: an MPI_Allreduce (sum) of M doubles and an
// MPI_Alltoall of M / size doubles per peer, both of data that every
// rank computes from (rank, iteration, index) and so can check: every
// element of every result is verified. Each rank times each iteration
// (wall clock, CLOCK_REALTIME, so a test can line it up with the time
// it injected a fault). Rank 0 rewrites --progress with the number of
// finished iterations after each one, and at the end writes --out: one
// JSON object with the per-iteration earliest start and latest end over
// the ranks, the number of wrong elements (all ranks) and "ok". With
// --stop, the job ends after the iteration in which rank 0 saw FILE (the
// flag rides in one more element of the allreduce, so all ranks agree
// without another message), or after N iterations (the default 200).
// The exit status is 0 when every element of every iteration was right.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

// Exactly representable values (integers below 2^53): any summation order
// gives the same double. Not libmrc's verified-byte pattern (mrc/pattern.hpp):
// an allreduce checks sums of elements, which random 64-bit words would
// make inexact, and this program stays plain C with no AF_MRC of its own
// (it runs under mrcize like any MPI program).
static double val(int rank, int iter, long i)
{
	return (double)(((uint64_t)rank * 1000003u + (uint64_t)iter * 7919u + (uint64_t)i) %
			65536u);
}

static void write_progress(const char *path, int n)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%d\n", n);
	fclose(f);
	rename(tmp, path);
}

int main(int argc, char **argv)
{
	int iters = 200, rank, size, it;
	long count = 32768, per, i;
	const char *out = NULL, *progress = NULL, *stop = NULL;
	double *a, *r, *s, *t, *start, *end, *gstart = NULL, *gend = NULL;
	long bad = 0, gbad = 0;

	MPI_Init(&argc, &argv);
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--iters") && k + 1 < argc)
			iters = atoi(argv[++k]);
		else if (!strcmp(argv[k], "--count") && k + 1 < argc)
			count = atol(argv[++k]);
		else if (!strcmp(argv[k], "--out") && k + 1 < argc)
			out = argv[++k];
		else if (!strcmp(argv[k], "--progress") && k + 1 < argc)
			progress = argv[++k];
		else if (!strcmp(argv[k], "--stop") && k + 1 < argc)
			stop = argv[++k];
		else {
			fprintf(stderr, "mrc_mpi_apps: unknown argument %s\n", argv[k]);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	per = count / size;
	count = per * size;
	// one more element: the stop flag
	a = malloc((count + 1) * sizeof(*a));
	r = malloc((count + 1) * sizeof(*r));
	s = malloc(count * sizeof(*s));
	t = malloc(count * sizeof(*t));
	start = calloc(iters, sizeof(*start));
	end = calloc(iters, sizeof(*end));
	if (rank == 0) {
		gstart = calloc(iters, sizeof(*gstart));
		gend = calloc(iters, sizeof(*gend));
	}
	if (!a || !r || !s || !t || !start || !end || (rank == 0 && (!gstart || !gend))) {
		fprintf(stderr, "mrc_mpi_apps: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	for (it = 0; it < iters; it++) {
		for (i = 0; i < count; i++) {
			a[i] = val(rank, it, i);
			// block j goes to rank j: element i of it is (rank, j, i)
			s[i] = val(rank * size + (int)(i / per), it, i % per);
		}
		a[count] = rank == 0 && stop && access(stop, F_OK) == 0;
		start[it] = now();
		MPI_Allreduce(a, r, (int)count + 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Alltoall(s, (int)per, MPI_DOUBLE, t, (int)per, MPI_DOUBLE, MPI_COMM_WORLD);
		end[it] = now();
		for (i = 0; i < count; i++) {
			double want = 0;

			for (int p = 0; p < size; p++)
				want += val(p, it, i);
			if (r[i] != want)
				bad++;
			// block p came from rank p: its block for us
			if (t[i] != val((int)(i / per) * size + rank, it, i % per))
				bad++;
		}
		if (r[count] != 0 && r[count] != 1)
			bad++;
		if (rank == 0 && progress)
			write_progress(progress, it + 1);
		if (r[count] != 0) {
			it++;
			break;
		}
	}
	iters = it;

	MPI_Reduce(&bad, &gbad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(start, gstart, iters, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
	MPI_Reduce(end, gend, iters, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0 && out) {
		FILE *f = fopen(out, "w");

		if (!f) {
			perror(out);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		fprintf(f,
			"{\"world\": %d, \"iters\": %d, \"count\": %ld, \"bad\": %ld, \"ok\": %s",
			size, iters, count, gbad, gbad ? "false" : "true");
		fprintf(f, ", \"start\": [");
		for (it = 0; it < iters; it++)
			fprintf(f, "%s%.6f", it ? ", " : "", gstart[it]);
		fprintf(f, "], \"end\": [");
		for (it = 0; it < iters; it++)
			fprintf(f, "%s%.6f", it ? ", " : "", gend[it]);
		fprintf(f, "]}\n");
		fclose(f);
	}
	MPI_Finalize();
	return gbad ? 1 : 0;
}
