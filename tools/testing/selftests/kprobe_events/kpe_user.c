// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_user - run a command with fewer privileges, for the security tests.
 *
 * usage: kpe_user -u UID [-g GID] COMMAND [ARG...]
 *        kpe_user -c CAP COMMAND [ARG...]
 *   -u  become UID (and GID, default the same number), no supplementary
 *       groups: an ordinary user
 *   -c  stay root but drop capability number CAP (e.g. 34, CAP_SYSLOG)
 *       from the bounding, effective, permitted and inheritable sets, so
 *       that neither this process nor the command has it
 *
 * Exits 2 if the privileges could not be dropped, else execs COMMAND
 * (127 if that fails).
 */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: kpe_user -u UID [-g GID] | -c CAP  COMMAND [ARG...]\n");
	return 2;
}

static int drop_cap(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0,
	};
	struct __user_cap_data_struct data[2];
	unsigned int word = cap / 32, bit = 1u << (cap % 32);

	if (cap < 0 || cap >= 64)
		return -1;
	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
		return -1;
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[word].effective &= ~bit;
	data[word].permitted &= ~bit;
	data[word].inheritable &= ~bit;
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

int main(int argc, char **argv)
{
	long uid = -1, gid = -1, cap = -1;
	int opt;

	while ((opt = getopt(argc, argv, "+u:g:c:")) != -1) {
		switch (opt) {
		case 'u':
			uid = strtol(optarg, NULL, 10);
			break;
		case 'g':
			gid = strtol(optarg, NULL, 10);
			break;
		case 'c':
			cap = strtol(optarg, NULL, 10);
			break;
		default:
			return usage();
		}
	}
	if (optind >= argc || (uid < 0 && cap < 0))
		return usage();
	if (cap >= 0 && drop_cap(cap)) {
		fprintf(stderr, "kpe_user: dropping capability %ld: %s\n", cap,
			strerror(errno));
		return 2;
	}
	if (uid >= 0) {
		if (gid < 0)
			gid = uid;
		if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
			fprintf(stderr, "kpe_user: becoming %ld:%ld: %s\n", uid,
				gid, strerror(errno));
			return 2;
		}
		if (getuid() != uid || geteuid() != uid) {
			fprintf(stderr, "kpe_user: still uid %d\n", (int)geteuid());
			return 2;
		}
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "kpe_user: %s: %s\n", argv[optind], strerror(errno));
	return 127;
}
