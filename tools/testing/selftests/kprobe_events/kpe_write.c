// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_write - write a string to a (tracefs) file in a single write() and
 * report the errno by name, so shell tests can check why a write failed.
 *
 * usage: kpe_write [-a|-t] FILE STRING
 *   -a  open with O_WRONLY|O_APPEND (default)
 *   -t  open with O_WRONLY|O_TRUNC
 *
 * Prints nothing and exits 0 on success.  On failure prints the errno
 * name (e.g. "EINVAL") on stdout and exits 1.  A short write prints
 * "SHORT_WRITE n/len" and exits 1.  Usage errors exit 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define E(x) { x, #x }
static const struct { int num; const char *name; } errnames[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(ENOEXEC), E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES),
	E(EFAULT), E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR),
	E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY), E(ETXTBSY),
	E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK), E(EPIPE),
	E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK),
	E(ENOTEMPTY), E(ELOOP), E(ENOMSG), E(EIDRM), E(ENODATA),
	E(ENOLINK), E(EPROTO), E(EBADMSG), E(EOVERFLOW), E(EILSEQ),
	E(EOPNOTSUPP), E(EADDRINUSE), E(EADDRNOTAVAIL), E(ETIMEDOUT),
	E(EALREADY), E(EINPROGRESS), E(ECANCELED), E(ENOKEY),
	{ 512, "ERESTARTSYS" }, { 515, "ENOIOCTLCMD" }, { 524, "ENOTSUPP" },
};

static void print_errno(int err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++) {
		if (errnames[i].num == err) {
			printf("%s\n", errnames[i].name);
			return;
		}
	}
	printf("ERRNO%d\n", err);
}

static int print_usage(void)
{
	fprintf(stderr, "usage: %s [-a|-t] FILE STRING\n", "kpe_write");
	return 2;
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_APPEND;
	const char *file, *str;
	size_t len;
	ssize_t ret;
	int fd, argi = 1;

	if (argc > 1 && argv[1][0] == '-' && argv[1][1] && !argv[1][2]) {
		if (argv[1][1] == 'a')
			flags = O_WRONLY | O_APPEND;
		else if (argv[1][1] == 't')
			flags = O_WRONLY | O_TRUNC;
		else
			return print_usage();
		argi++;
	}
	if (argc - argi != 2)
		return print_usage();
	file = argv[argi];
	str = argv[argi + 1];
	len = strlen(str);

	fd = open(file, flags);
	if (fd < 0) {
		print_errno(errno);
		return 1;
	}
	ret = write(fd, str, len);
	if (ret < 0) {
		print_errno(errno);
		close(fd);
		return 1;
	}
	if ((size_t)ret != len) {
		printf("SHORT_WRITE %zd/%zu\n", ret, len);
		close(fd);
		return 1;
	}
	if (close(fd) < 0) {
		print_errno(errno);
		return 1;
	}
	return 0;
}
