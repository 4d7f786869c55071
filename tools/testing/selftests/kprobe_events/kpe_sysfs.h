/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kpe_sysfs.h - shared by the static helpers that open perf's kprobe PMU
 * (kpe_perf, kpe_bench, kpe_funcip): reading its type and format files.
 */
#ifndef KPE_SYSFS_H
#define KPE_SYSFS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The number in the first line of @path, after @skip if the line starts
 * with it ("config:" in a PMU format file); -1 if the file cannot be read.
 */
static inline long read_number(const char *path, const char *skip)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf + (skip && !strncmp(buf, skip, strlen(skip)) ?
				  strlen(skip) : 0), NULL, 0);
	fclose(f);
	return v;
}

#endif
